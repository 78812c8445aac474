// The authorization server refusing what it must refuse, as RFC 6749/7591/7636/7009 say: registration
// mistakes, unknown clients and redirect URIs (a page, never a redirect), PKCE, spent and expired codes,
// expired and revoked tokens, and a consent page that is escaped, script-free and bound to its request.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sha256Hex } from "../../src/lib/secrets";
import { consentSecret, signConsent, CONSENT_FORM_TTL_MS } from "../../src/modules/oauth/consent-token";
import { expectJson, NO_SOURCES, startTestServer, type TestServer } from "../support/server";
import { approve, formTokenOf, pkcePair, postConsent, postForm } from "./support";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ ...NO_SOURCES, BRAINBOX_AUTH_FAILURES_PER_MINUTE: "1000" });
});
afterAll(() => s?.close());

const REDIRECT = "https://app.example/callback";

async function register(metadata: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const res = await fetch(`${s.url}/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ client_name: "Bad input app", redirect_uris: [REDIRECT], token_endpoint_auth_method: "none", ...metadata }),
  });
  return expectJson(res, 201);
}

function authorizeUrl(params: Record<string, string>): URL {
  const url = new URL(`${s.url}/oauth/authorize`);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url;
}

/** A complete, valid authorization request for `clientId`. */
function validRequest(clientId: string, challenge: string, extra: Record<string, string> = {}) {
  return { response_type: "code", client_id: clientId, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: "S256", state: "xyz", ...extra };
}

async function codeFor(clientId: string, challenge: string, apiKey = s.key): Promise<string> {
  const back = await approve(s.url, authorizeUrl(validRequest(clientId, challenge)), apiKey);
  return back.searchParams.get("code")!;
}

const exchange = (fields: Record<string, string>) => postForm(s.url, "/oauth/token", { grant_type: "authorization_code", redirect_uri: REDIRECT, ...fields });
const oauthError = async (res: Response, status = 400) => (await expectJson(res, status)).error as string;

describe("discovery", () => {
  test("RFC 8414 and RFC 9728 documents", async () => {
    const as = await expectJson(await fetch(`${s.url}/.well-known/oauth-authorization-server`), 200);
    expect(as).toMatchObject({
      issuer: s.url,
      authorization_endpoint: `${s.url}/oauth/authorize`,
      token_endpoint: `${s.url}/oauth/token`,
      registration_endpoint: `${s.url}/oauth/register`,
      revocation_endpoint: `${s.url}/oauth/revoke`,
      response_types_supported: ["code"],
      grant_types_supported: ["authorization_code", "refresh_token"],
      code_challenge_methods_supported: ["S256"],
    });
    expect(await expectJson(await fetch(`${s.url}/.well-known/oauth-protected-resource`), 200)).toMatchObject({ resource: s.url, authorization_servers: [s.url] });
  });
});

describe("registration (RFC 7591)", () => {
  test("a public client gets an id and no secret; a confidential one a secret shown once", async () => {
    const pub = await register();
    expect(pub.client_id).toMatch(/^cli_/);
    expect(pub.client_secret).toBeUndefined();
    expect(pub).toMatchObject({ redirect_uris: [REDIRECT], token_endpoint_auth_method: "none", grant_types: ["authorization_code", "refresh_token"], response_types: ["code"] });
    const conf = await register({ token_endpoint_auth_method: "client_secret_post" });
    expect(conf.client_secret).toMatch(/^bb_cs_[0-9A-Za-z]{43}$/);
    const stored = await s.ctx.database.client.execute({ sql: "SELECT secret_hash FROM oauth_clients WHERE id = ?", args: [conf.client_id] });
    expect(stored.rows[0]!.secret_hash).toBe(sha256Hex(conf.client_secret));
  });

  test("bad metadata is refused with the RFC's error codes", async () => {
    const post = (body: unknown) => fetch(`${s.url}/oauth/register`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    for (const [body, error] of [
      [{ client_name: "x" }, "invalid_redirect_uri"],
      [{ redirect_uris: [] }, "invalid_redirect_uri"],
      [{ redirect_uris: ["http://evil.example/cb"] }, "invalid_redirect_uri"],
      [{ redirect_uris: ["https://app.example/cb#frag"] }, "invalid_redirect_uri"],
      [{ redirect_uris: ["javascript:alert(1)"] }, "invalid_redirect_uri"],
      [{ redirect_uris: ["not a uri"] }, "invalid_redirect_uri"],
      [{ redirect_uris: [REDIRECT], token_endpoint_auth_method: "private_key_jwt" }, "invalid_client_metadata"],
      [{ redirect_uris: [REDIRECT], grant_types: ["client_credentials"] }, "invalid_client_metadata"],
      [{ redirect_uris: [REDIRECT], response_types: ["token"] }, "invalid_client_metadata"],
      [{ redirect_uris: [REDIRECT], client_uri: "javascript:alert(1)" }, "invalid_client_metadata"],
      [[1, 2], "invalid_client_metadata"],
    ] as const) {
      expect(await oauthError(await post(body))).toBe(error);
    }
    // Loopback http and native-app schemes are fine.
    await register({ redirect_uris: ["http://localhost:7777/cb", "http://127.0.0.1/cb", "com.example.app:/oauth"] });
  });
});

describe("the authorization request", () => {
  test("an unknown client or an unregistered redirect URI is a page, never a redirect", async () => {
    const { client_id } = await register();
    const { challenge } = pkcePair();
    for (const params of [
      validRequest("cli_unknown0000000000", challenge),
      validRequest(client_id, challenge, { redirect_uri: "https://app.example/other" }),
      validRequest(client_id, challenge, { redirect_uri: "https://app.example/callback/" }),
      { ...validRequest(client_id, challenge), redirect_uri: "" },
    ]) {
      const res = await fetch(authorizeUrl(params), { redirect: "manual" });
      expect(res.status).toBe(400);
      expect(res.headers.get("location")).toBeNull();
      expect(res.headers.get("content-type")).toContain("text/html");
      expect(await res.text()).toContain("cannot be used");
    }
  });

  test("other mistakes go back to the client's redirect URI with error, state and iss", async () => {
    const { client_id } = await register();
    const { challenge } = pkcePair();
    for (const [extra, error] of [
      [{ code_challenge: "" }, "invalid_request"],
      [{ code_challenge_method: "plain" }, "invalid_request"],
      [{ code_challenge: "short" }, "invalid_request"],
      [{ response_type: "token" }, "unsupported_response_type"],
      [{ resource: "https://elsewhere.example/mcp" }, "invalid_target"],
    ] as const) {
      const res = await fetch(authorizeUrl(validRequest(client_id, challenge, extra)), { redirect: "manual" });
      expect(res.status).toBe(303);
      const back = new URL(res.headers.get("location")!);
      expect(back.origin + back.pathname).toBe(REDIRECT);
      expect(back.searchParams.get("error")).toBe(error);
      expect(back.searchParams.get("state")).toBe("xyz");
      expect(back.searchParams.get("iss")).toBe(s.url);
      expect(back.searchParams.get("code")).toBeNull();
    }
  });

  test("the consent page: escaped, no script, a strict CSP, never framed", async () => {
    const { client_id } = await register({ client_name: `<script>alert("x")</script> & Co`, client_uri: "https://app.example/?a=<b>" });
    const res = await fetch(authorizeUrl(validRequest(client_id, pkcePair().challenge)));
    expect(res.status).toBe(200);
    const csp = res.headers.get("content-security-policy")!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("cache-control")).toBe("no-store");
    const html = await res.text();
    expect(html).not.toContain("<script");
    expect(html).toContain("&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62; &#38; Co");
    expect(html).toContain("app.example");
    expect(html).not.toMatch(/ on[a-z]+=/);
    const css = await fetch(`${s.url}/oauth/consent.css`);
    expect(css.headers.get("content-type")).toContain("text/css");
  });

  test("the consent form: deny, a bad key, an access token, a forged or expired form", async () => {
    const { client_id } = await register();
    const page = await (await fetch(authorizeUrl(validRequest(client_id, pkcePair().challenge)))).text();
    const formToken = formTokenOf(page);

    const denied = await postConsent(s.url, { form_token: formToken, decision: "deny" });
    expect(denied.status).toBe(303);
    const back = new URL(denied.headers.get("location")!);
    expect(Object.fromEntries(back.searchParams)).toMatchObject({ error: "access_denied", state: "xyz", iss: s.url });

    const badKey = await postConsent(s.url, { form_token: formToken, api_key: "bb_live_wrong", decision: "approve" });
    expect(badKey.status).toBe(400);
    const again = await badKey.text();
    expect(again).toContain("not valid");
    expect(formTokenOf(again)).toBeString(); // the form is shown again
    const notAKey = await postConsent(s.url, { form_token: formToken, api_key: "bb_at_sometoken", decision: "approve" });
    expect(await notAKey.text()).toContain("Paste one of your API keys");

    const [body, mac] = formToken.split(".");
    const claims = JSON.parse(Buffer.from(body!, "base64url").toString());
    claims.request.redirectUri = "https://evil.example/cb";
    const forged = `${Buffer.from(JSON.stringify(claims)).toString("base64url")}.${mac}`;
    const refused = await postConsent(s.url, { form_token: forged, api_key: s.key, decision: "approve" });
    expect(refused.status).toBe(400);
    expect(refused.headers.get("location")).toBeNull();

    const old = signConsent(await consentSecret(s.ctx.db), claims.request, Date.now() - CONSENT_FORM_TTL_MS - 1000);
    const expired = await postConsent(s.url, { form_token: old, api_key: s.key, decision: "approve" });
    expect(expired.status).toBe(400);
    expect(await expired.text()).toContain("expired");
  });
});

describe("the token endpoint", () => {
  test("a wrong PKCE verifier is invalid_grant, and spends the code", async () => {
    const { client_id } = await register();
    const { verifier, challenge } = pkcePair();
    const code = await codeFor(client_id, challenge);
    expect(await oauthError(await exchange({ client_id, code, code_verifier: pkcePair().verifier }))).toBe("invalid_grant");
    expect(await oauthError(await exchange({ client_id, code, code_verifier: verifier }))).toBe("invalid_grant");
    expect(await oauthError(await exchange({ client_id, code, code_verifier: "too-short" }))).toBe("invalid_grant");
  });

  test("a code used twice: refused, and the tokens from its first use are revoked", async () => {
    const { client_id } = await register();
    const { verifier, challenge } = pkcePair();
    const code = await codeFor(client_id, challenge);
    const first = await exchange({ client_id, code, code_verifier: verifier });
    expect(first.headers.get("cache-control")).toBe("no-store");
    const tokens = await expectJson(first, 200);
    await expectJson(await s.api("/api/v1/brains", { key: tokens.access_token }), 200);
    expect(await oauthError(await exchange({ client_id, code, code_verifier: verifier }))).toBe("invalid_grant");
    expect((await s.api("/api/v1/brains", { key: tokens.access_token })).status).toBe(401);
  });

  test("eight concurrent exchanges of one code: exactly one gets tokens", async () => {
    const { client_id } = await register();
    const { verifier, challenge } = pkcePair();
    const code = await codeFor(client_id, challenge);
    const replies = await Promise.all(Array.from({ length: 8 }, () => exchange({ client_id, code, code_verifier: verifier })));
    expect(replies.map((r) => r.status).sort()).toEqual([200, 400, 400, 400, 400, 400, 400, 400]);
  });

  test("redirect_uri, client and expiry are bound to the code", async () => {
    const a = await register({ redirect_uris: [REDIRECT, "https://app.example/second"] });
    const b = await register();
    const pair = pkcePair();
    const mismatched = await codeFor(a.client_id, pair.challenge);
    expect(await oauthError(await exchange({ client_id: a.client_id, code: mismatched, code_verifier: pair.verifier, redirect_uri: "https://app.example/second" }))).toBe("invalid_grant");
    const stolen = await codeFor(a.client_id, pair.challenge);
    expect(await oauthError(await exchange({ client_id: b.client_id, code: stolen, code_verifier: pair.verifier }))).toBe("invalid_grant");
    const late = await codeFor(a.client_id, pair.challenge);
    await s.ctx.database.client.execute({ sql: "UPDATE oauth_codes SET expires_at = ? WHERE hash = ?", args: [Date.now() - 1, sha256Hex(late)] });
    expect(await oauthError(await exchange({ client_id: a.client_id, code: late, code_verifier: pair.verifier }))).toBe("invalid_grant");
    expect(await oauthError(await exchange({ client_id: a.client_id, code: "bb_ac_made_up", code_verifier: pair.verifier }))).toBe("invalid_grant");
  });

  test("client authentication and request errors", async () => {
    const conf = await register({ token_endpoint_auth_method: "client_secret_post" });
    const pair = pkcePair();
    expect(await oauthError(await exchange({ client_id: "cli_nobody000000000", code: "x", code_verifier: pair.verifier }), 401)).toBe("invalid_client");
    expect(await oauthError(await exchange({ client_id: conf.client_id, code: "x", code_verifier: pair.verifier }), 401)).toBe("invalid_client");
    expect(await oauthError(await exchange({ client_id: conf.client_id, client_secret: "bb_cs_wrong", code: "x", code_verifier: pair.verifier }), 401)).toBe("invalid_client");
    const code = await codeFor(conf.client_id, pair.challenge);
    const ok = await expectJson(await exchange({ client_id: conf.client_id, client_secret: conf.client_secret, code, code_verifier: pair.verifier }), 200);
    expect(ok.token_type).toBe("Bearer");

    const { client_id } = await register();
    expect(await oauthError(await postForm(s.url, "/oauth/token", { client_id }))).toBe("invalid_request");
    expect(await oauthError(await postForm(s.url, "/oauth/token", { client_id, grant_type: "password" }))).toBe("unsupported_grant_type");
    expect(await oauthError(await exchange({ client_id, code: "x" }))).toBe("invalid_request");
    expect(await oauthError(await postForm(s.url, "/oauth/token", { client_id, grant_type: "refresh_token" }))).toBe("invalid_request");
  });

  test("a client registered without refresh_token gets no refresh token and cannot refresh", async () => {
    const { client_id } = await register({ grant_types: ["authorization_code"] });
    const pair = pkcePair();
    const tokens = await expectJson(await exchange({ client_id, code: await codeFor(client_id, pair.challenge), code_verifier: pair.verifier }), 200);
    expect(tokens.refresh_token).toBeUndefined();
    expect(await oauthError(await postForm(s.url, "/oauth/token", { client_id, grant_type: "refresh_token", refresh_token: "bb_rt_x" }))).toBe("unauthorized_client");
  });
});

describe("tokens on the API", () => {
  async function freshTokens() {
    const { client_id } = await register();
    const pair = pkcePair();
    const tokens = await expectJson(await exchange({ client_id, code: await codeFor(client_id, pair.challenge), code_verifier: pair.verifier }), 200);
    return { client_id, ...tokens } as { client_id: string; access_token: string; refresh_token: string };
  }

  test("expired → 401, exactly like a bad API key", async () => {
    const { access_token } = await freshTokens();
    await expectJson(await s.api("/api/v1/brains", { key: access_token }), 200);
    await s.ctx.database.client.execute({ sql: "UPDATE oauth_tokens SET expires_at = ? WHERE hash = ?", args: [Date.now() - 1, sha256Hex(access_token)] });
    const res = await s.api("/api/v1/brains", { key: access_token });
    expect((await expectJson(res, 401)).error.code).toBe("unauthorized");
  });

  test("revoked (RFC 7009 by a public client) → 401; a refresh token is never a bearer", async () => {
    const { client_id, access_token, refresh_token } = await freshTokens();
    expect((await s.api("/api/v1/brains", { key: refresh_token })).status).toBe(401);
    // Another client cannot revoke it.
    const other = await register();
    expect((await postForm(s.url, "/oauth/revoke", { client_id: other.client_id, token: access_token })).status).toBe(200);
    await expectJson(await s.api("/api/v1/brains", { key: access_token }), 200);
    expect((await postForm(s.url, "/oauth/revoke", { client_id, token: access_token })).status).toBe(200);
    expect((await s.api("/api/v1/brains", { key: access_token })).status).toBe(401);
    expect(await oauthError(await postForm(s.url, "/oauth/revoke", { client_id }))).toBe("invalid_request");
    // The grant lives on through its refresh token.
    const refreshed = await expectJson(await postForm(s.url, "/oauth/token", { client_id, grant_type: "refresh_token", refresh_token }), 200);
    await expectJson(await s.api("/api/v1/brains", { key: refreshed.access_token }), 200);
  });

  test("made-up tokens with the right prefix are 401", async () => {
    expect((await s.api("/api/v1/brains", { key: `bb_at_${"A".repeat(43)}` })).status).toBe(401);
    expect((await s.api("/api/user/oauth-grants", { key: `bb_at_${"A".repeat(43)}` })).status).toBe(401);
  });
});
