// OAuth clients: open dynamic registration (RFC 7591, what MCP hosts use to connect) and client
// authentication at the token and revocation endpoints. Secrets are high-entropy, so SHA-256 is the hash.
import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { oauthClients } from "../../db/schema";
import { newId, randomBase62, safeEqual, sha256Hex } from "../../lib/secrets";
import { OAuthError } from "./errors";
import { CLIENT_AUTH_METHODS, type ClientAuthMethod } from "./metadata";
import { MAX_REDIRECT_URIS, redirectUriProblem } from "./redirect-uris";

export type OAuthClient = typeof oauthClients.$inferSelect;

const GRANT_TYPES = ["authorization_code", "refresh_token"];
/** Echoed back as registered when they are well-formed; never trusted for anything. */
const URL_FIELDS = ["client_uri", "logo_uri", "tos_uri", "policy_uri"] as const;
const MAX_NAME = 200;

const badMetadata = (description: string) => new OAuthError("invalid_client_metadata", description);

function stringList(value: unknown, field: string): string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || !value.every((v) => typeof v === "string")) throw badMetadata(`${field} must be an array of strings`);
  return value;
}

/** grant_types (lenient default: connectors expect refresh tokens even when they omit it) and response_types. */
export function grantTypesOf(input: Record<string, unknown>): string[] {
  const grantTypes = stringList(input.grant_types, "grant_types") ?? GRANT_TYPES;
  if (!grantTypes.includes("authorization_code") || grantTypes.some((g) => !GRANT_TYPES.includes(g)))
    throw badMetadata("grant_types must include authorization_code and may add refresh_token");
  const responseTypes = stringList(input.response_types, "response_types") ?? ["code"];
  if (responseTypes.length !== 1 || responseTypes[0] !== "code") throw badMetadata('response_types must be ["code"]');
  return grantTypes;
}

/** client_uri, logo_uri, tos_uri, policy_uri when well-formed http(s) URLs (shown, never trusted). */
export function urlFieldsOf(input: Record<string, unknown>): Record<string, unknown> {
  const metadata: Record<string, unknown> = {};
  for (const field of URL_FIELDS) {
    const value = input[field];
    if (value === undefined || value === "") continue;
    if (typeof value !== "string" || !/^https?:\/\//.test(value) || !URL.canParse(value)) throw badMetadata(`${field} must be an http(s) URL`);
    metadata[field] = value;
  }
  return metadata;
}

/** Registers a client from RFC 7591 metadata; returns the registration response (the secret shown once). */
export async function registerClient(db: Db, body: unknown): Promise<Record<string, unknown>> {
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw badMetadata("The body must be a JSON object of client metadata");
  const input = body as Record<string, unknown>;

  const redirectUris = stringList(input.redirect_uris, "redirect_uris");
  if (!redirectUris || redirectUris.length === 0) throw new OAuthError("invalid_redirect_uri", "redirect_uris must list at least one URI");
  if (redirectUris.length > MAX_REDIRECT_URIS) throw new OAuthError("invalid_redirect_uri", `At most ${MAX_REDIRECT_URIS} redirect_uris`);
  for (const uri of redirectUris) {
    const problem = redirectUriProblem(uri);
    if (problem) throw new OAuthError("invalid_redirect_uri", problem);
  }

  // RFC 7591 defaults to client_secret_basic; MCP hosts usually ask for `none` (public client + PKCE).
  const authMethod = (input.token_endpoint_auth_method ?? "client_secret_basic") as ClientAuthMethod;
  if (!CLIENT_AUTH_METHODS.includes(authMethod)) throw badMetadata(`token_endpoint_auth_method must be one of ${CLIENT_AUTH_METHODS.join(", ")}`);
  const grantTypes = grantTypesOf(input);

  const name = input.client_name === undefined ? "Unnamed client" : input.client_name;
  if (typeof name !== "string" || !name.trim() || name.length > MAX_NAME) throw badMetadata(`client_name must be 1 to ${MAX_NAME} characters`);
  const metadata = urlFieldsOf(input);
  if (typeof input.scope === "string") metadata.scope = input.scope.slice(0, 500);
  for (const field of ["software_id", "software_version"] as const)
    if (typeof input[field] === "string") metadata[field] = (input[field] as string).slice(0, 200);

  const id = newId("cli");
  const secret = authMethod === "none" ? null : `bb_cs_${randomBase62(43)}`;
  const [row] = await db
    .insert(oauthClients)
    .values({ id, secretHash: secret ? sha256Hex(secret) : null, authMethod, name: name.trim(), redirectUris, grantTypes, metadata })
    .returning();
  return {
    client_id: id,
    client_id_issued_at: Math.floor(row!.createdAt / 1000),
    ...(secret ? { client_secret: secret, client_secret_expires_at: 0 } : {}),
    client_name: row!.name,
    redirect_uris: redirectUris,
    token_endpoint_auth_method: authMethod,
    grant_types: grantTypes,
    response_types: ["code"],
    ...metadata,
  };
}

export async function findClient(db: Db, clientId: string): Promise<OAuthClient | undefined> {
  if (clientId.length > 2000) return undefined;
  return db.query.oauthClients.findFirst({ where: eq(oauthClients.id, clientId) });
}

/** client_id and secret from HTTP Basic (RFC 6749 §2.3.1: each form-urlencoded) or the form body. */
function presentedCredentials(authorization: string | null, form: Record<string, string>): { id?: string; secret?: string } {
  const basic = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization ?? "");
  if (basic) {
    const decoded = Buffer.from(basic[1]!, "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon < 0) throw new OAuthError("invalid_client", "Malformed Basic credentials", 401);
    const unescape = (s: string) => {
      try {
        return decodeURIComponent(s.replace(/\+/g, " "));
      } catch {
        return s;
      }
    };
    return { id: unescape(decoded.slice(0, colon)), secret: unescape(decoded.slice(colon + 1)) };
  }
  return { id: form.client_id, secret: form.client_secret };
}

/** The calling client, authenticated as it registered (a public client only names itself). */
export async function authenticateClient(db: Db, authorization: string | null, form: Record<string, string>): Promise<OAuthClient> {
  const { id, secret } = presentedCredentials(authorization, form);
  if (!id) throw new OAuthError("invalid_client", "Client authentication failed: no client_id", 401);
  const client = await findClient(db, id);
  if (!client) throw new OAuthError("invalid_client", "Client authentication failed: unknown client", 401);
  if (client.secretHash === null) return client;
  if (!secret || !safeEqual(client.secretHash, sha256Hex(secret))) throw new OAuthError("invalid_client", "Client authentication failed: bad client secret", 401);
  return client;
}
