// OAuth helpers for tests: an in-memory OAuthClientProvider for the MCP SDK's own auth flow, and the
// owner's side of the consent page (the test reads the form and posts it with an API key).
import { expect } from "bun:test";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { createHash } from "node:crypto";

export const REDIRECT_URL = "http://127.0.0.1:1/callback";

export class MemoryOAuthProvider implements OAuthClientProvider {
  client: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = "";
  lastState = "";
  authorizationUrl: URL | undefined;

  constructor(
    readonly redirectUrl = REDIRECT_URL,
    readonly metadataOverrides: Partial<OAuthClientMetadata> = {},
  ) {}

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "Test connector",
      redirect_uris: [this.redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
      ...this.metadataOverrides,
    };
  }
  state() {
    this.lastState = `st_${crypto.randomUUID()}`;
    return this.lastState;
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/** The hidden form token of a consent page. */
export function formTokenOf(html: string): string {
  const match = /name="form_token" value="([^"]+)"/.exec(html);
  if (!match) throw new Error(`no consent form in: ${html.slice(0, 300)}`);
  return match[1]!;
}

/** Posts the consent form as the owner's browser would (with this server's Origin); returns the 303 back or a page. */
export function postConsent(baseUrl: string, fields: Record<string, string>, headers: Record<string, string> = { origin: baseUrl }): Promise<Response> {
  return fetch(`${baseUrl}/oauth/authorize`, { method: "POST", body: new URLSearchParams(fields), redirect: "manual", headers });
}

/** Opens the consent page at `authorizationUrl` and approves it with `apiKey`; returns the redirect back. */
export async function approve(baseUrl: string, authorizationUrl: URL, apiKey: string): Promise<URL> {
  const page = await fetch(authorizationUrl, { redirect: "manual" });
  const html = await page.text();
  expect(page.status).toBe(200);
  const res = await postConsent(baseUrl, { form_token: formTokenOf(html), api_key: apiKey, decision: "approve" });
  expect(res.status).toBe(303);
  return new URL(res.headers.get("location")!);
}

/** A PKCE pair (RFC 7636 S256). */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

/** A form POST to an OAuth endpoint. */
export function postForm(baseUrl: string, path: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(baseUrl + path, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", ...headers }, body: new URLSearchParams(fields) });
}
