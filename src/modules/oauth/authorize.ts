// The authorization request (RFC 6749 §4.1.1 with PKCE, RFC 7636; resource indicators, RFC 8707). Errors
// about the client or its redirect URI are shown as a page (never redirected: the URI is not trusted);
// every other error goes back to the client on its redirect URI, with `state`.
import type { ClientResolver } from "./client-metadata";
import type { OAuthClient } from "./clients";
import { OAuthError } from "./errors";
import { formatScopes, requestedScopes } from "../auth/scopes";
import { redirectUriMatches } from "./redirect-uris";

export interface AuthorizationRequest {
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  scope: string;
  state: string | null;
  resource: string | null;
}

export type ParsedAuthorization =
  | { kind: "ok"; client: OAuthClient; request: AuthorizationRequest }
  | { kind: "show-error"; message: string }
  | { kind: "redirect-error"; redirectUri: string; state: string | null; error: OAuthError };

/** S256 challenges are base64url SHA-256 digests: 43 characters. */
const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
const MAX_STATE = 1000;

/** One value per parameter (RFC 6749 §3.1: a repeated parameter is an error). */
function single(params: URLSearchParams, name: string): string | null | "repeated" {
  const values = params.getAll(name);
  if (values.length > 1) return "repeated";
  return values[0] ?? null;
}

/** A resource indicator must name this server's API or a path under it (tokens are good for all of it). */
export function resourceProblem(resource: string, publicUrl: string): string | null {
  if (!URL.canParse(resource) || resource.includes("#")) return "resource must be an absolute URI without a fragment";
  const base = new URL(publicUrl);
  const url = new URL(resource);
  const basePath = base.pathname.replace(/\/$/, "");
  const under = url.pathname === basePath || url.pathname === `${basePath}/` || url.pathname.startsWith(`${basePath}/`);
  return url.origin === base.origin && under ? null : `resource ${resource} is not served here`;
}

export async function parseAuthorizationRequest(resolveClient: ClientResolver, params: URLSearchParams, publicUrl: string): Promise<ParsedAuthorization> {
  const clientId = single(params, "client_id");
  if (!clientId || clientId === "repeated") return { kind: "show-error", message: "The request names no client (client_id)." };
  const found = await resolveClient(clientId);
  if ("problem" in found) return { kind: "show-error", message: found.problem };
  const client = found.client;
  const redirectUri = single(params, "redirect_uri");
  if (!redirectUri || redirectUri === "repeated") return { kind: "show-error", message: "The request has no redirect_uri." };
  if (!redirectUriMatches(client.redirectUris, redirectUri))
    return { kind: "show-error", message: "The redirect_uri does not match any URI this application registered." };

  const rawState = single(params, "state");
  const state = rawState === "repeated" ? null : rawState;
  const fail = (code: OAuthError["code"], description: string): ParsedAuthorization => ({
    kind: "redirect-error",
    redirectUri,
    state,
    error: new OAuthError(code, description),
  });
  if (rawState === "repeated") return fail("invalid_request", "state is repeated");
  if (state !== null && state.length > MAX_STATE) return fail("invalid_request", `state must be at most ${MAX_STATE} characters`);
  const responseType = single(params, "response_type");
  if (responseType !== "code") return fail("unsupported_response_type", "Only response_type=code is supported");
  const challenge = single(params, "code_challenge");
  const method = single(params, "code_challenge_method");
  if (!challenge || challenge === "repeated") return fail("invalid_request", "PKCE is required: send code_challenge with code_challenge_method=S256");
  if (method !== "S256") return fail("invalid_request", "Only code_challenge_method=S256 is supported");
  if (!CHALLENGE.test(challenge)) return fail("invalid_request", "code_challenge must be 43 base64url characters");
  const resources = params.getAll("resource");
  for (const resource of resources) {
    const problem = resourceProblem(resource, publicUrl);
    if (problem) return fail("invalid_target", problem);
  }
  const scope = single(params, "scope");
  if (scope === "repeated") return fail("invalid_request", "scope is repeated");
  // Narrowed to the known scopes asked for; unknown ones are ignored (RFC 6749 §3.3), and the consent page
  // and the token response say what is granted.
  return {
    kind: "ok",
    client,
    request: { clientId: client.id, redirectUri, codeChallenge: challenge, scope: formatScopes(requestedScopes(scope)), state, resource: resources[0] ?? null },
  };
}

/** The client's redirect URI with the response parameters added (absent values left out). */
export function redirectWith(redirectUri: string, params: Record<string, string | null>): string {
  const url = new URL(redirectUri);
  for (const [key, value] of Object.entries(params)) if (value !== null) url.searchParams.set(key, value);
  return url.toString();
}
