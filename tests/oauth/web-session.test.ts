// Consent without pasting a key: POST /api/v1/web-session (bearer) sets an HttpOnly, SameSite=Lax cookie
// of a person's session (modules/people: hashed, expiring, revocable); the consent page then shows who is signed in and
// an Allow/Deny form bound to the session by a CSRF token; DELETE signs out. Real HTTP, cookies by hand
// (what a browser sends), then the SDK client's flow approved through the session.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { sha256Hex } from "../../src/lib/secrets";
import { newAccountKey } from "../support/accounts";
import { expectJson, NO_SOURCES, startTestServer, type TestServer } from "../support/server";
import { formTokenOf, MemoryOAuthProvider, pkcePair, postForm } from "./support";

const REDIRECT = "http://127.0.0.1:4321/cb";
let s: TestServer;
let clientId: string;
beforeAll(async () => {
  s = await startTestServer({ ...NO_SOURCES, BRAINBOX_AUTH_FAILURES_PER_MINUTE: "1000" });
  const res = await fetch(`${s.url}/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ client_name: "Session app", redirect_uris: [REDIRECT], token_endpoint_auth_method: "none" }),
  });
  clientId = (await expectJson(res, 201)).client_id;
});
afterAll(() => s?.close());

/** Signs in as the admin page does; returns the cookie pair to send back (`name=value`) and the raw header. */
async function signIn(key = s.key, base = s.url): Promise<{ cookie: string; setCookie: string }> {
  const res = await fetch(`${base}/api/v1/web-session`, { method: "POST", headers: { authorization: `Bearer ${key}` } });
  expect(res.status).toBe(204);
  const setCookie = res.headers.get("set-cookie")!;
  return { cookie: setCookie.split(";")[0]!, setCookie };
}

function authorizeUrl(challenge: string): URL {
  const url = new URL(`${s.url}/oauth/authorize`);
  const params = { response_type: "code", client_id: clientId, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: "S256", state: "st" };
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url;
}

const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)?.[1];

async function consentPage(cookie: string | null, challenge = pkcePair().challenge, headers: Record<string, string> = {}) {
  const res = await fetch(authorizeUrl(challenge), { headers: { ...(cookie ? { cookie } : {}), ...headers } });
  expect(res.status).toBe(200);
  const html = await res.text();
  return { html, formToken: formTokenOf(html), csrf: csrfOf(html) };
}

function post(fields: Record<string, string>, cookie: string | null, headers: Record<string, string> = {}) {
  return fetch(`${s.url}/oauth/authorize`, { method: "POST", body: new URLSearchParams(fields), redirect: "manual", headers: { origin: s.url, ...(cookie ? { cookie } : {}), ...headers } });
}

async function accountNameOf(code: string, verifier: string): Promise<string> {
  const tokens = await expectJson(await postForm(s.url, "/oauth/token", { grant_type: "authorization_code", code, redirect_uri: REDIRECT, code_verifier: verifier, client_id: clientId }), 200);
  return (await expectJson(await s.api("/api/v1/account", { key: tokens.access_token }), 200)).account.name;
}

describe("POST and DELETE /api/v1/web-session", () => {
  test("a bearer gets a hashed, expiring session in an HttpOnly, SameSite=Lax cookie (no Secure on http)", async () => {
    const { cookie, setCookie } = await signIn();
    const [pair, ...attributes] = setCookie.split("; ");
    expect(pair).toMatch(/^bb_session=bb_ws_[0-9A-Za-z]{43}$/);
    expect(attributes.sort()).toEqual(["HttpOnly", `Max-Age=${168 * 3600}`, "Path=/", "SameSite=Lax"]);
    const secret = cookie.split("=")[1]!;
    const rows = await s.ctx.database.client.execute("SELECT hash, via, expires_at FROM web_sessions");
    expect(JSON.stringify(rows.rows)).not.toContain(secret);
    const row = rows.rows.find((r) => r.hash === sha256Hex(secret))!;
    expect(row.via).toBe("api_key");
    expect(Number(row.expires_at) - Date.now()).toBeGreaterThan(11.9 * 3600_000);
  });

  test("no bearer or a bad one: 401 with the challenge, no cookie", async () => {
    const cases: Record<string, string>[] = [{}, { authorization: "Bearer bb_live_nope" }, { cookie: (await signIn()).cookie }];
    for (const headers of cases) {
      const res = await fetch(`${s.url}/api/v1/web-session`, { method: "POST", headers });
      expect((await expectJson(res, 401)).error.code).toBe("unauthorized");
      expect(res.headers.get("set-cookie")).toBeNull();
      expect(res.headers.get("www-authenticate")).toContain('resource_metadata="');
    }
  });

  test("the cookie acts as the key's account on the API, but never for a write from another site", async () => {
    const { cookie } = await signIn();
    expect((await fetch(`${s.url}/api/v1/brains`, { headers: { cookie } })).status).toBe(200);
    const crossSite = await fetch(`${s.url}/api/v1/brains`, { method: "POST", headers: { cookie, origin: "https://evil.example", "content-type": "application/json" }, body: '{"name":"x"}' });
    expect(crossSite.status).toBe(403);
  });

  test("DELETE signs out: 204, the cookie cleared, the session dead server-side", async () => {
    const { cookie } = await signIn();
    const { csrf, formToken } = await consentPage(cookie);
    expect(csrf).toBeString();
    const out = await fetch(`${s.url}/api/v1/web-session`, { method: "DELETE", headers: { cookie } });
    expect(out.status).toBe(204);
    expect(out.headers.get("set-cookie")).toBe("bb_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax");
    // The old cookie, replayed, signs nobody in and approves nothing.
    expect((await consentPage(cookie)).csrf).toBeUndefined();
    const refused = await post({ form_token: formToken, csrf: csrf!, decision: "approve" }, cookie);
    expect(refused.status).toBe(400);
    expect(refused.headers.get("location")).toBeNull();
    expect(await refused.text()).toContain("Paste one of your API keys");
    // Signing out without a session is fine too.
    expect((await fetch(`${s.url}/api/v1/web-session`, { method: "DELETE" })).status).toBe(204);
  });

  test("signing in again replaces the browser's session", async () => {
    const first = await signIn();
    const res = await fetch(`${s.url}/api/v1/web-session`, { method: "POST", headers: { authorization: `Bearer ${s.key}`, cookie: first.cookie } });
    expect(res.status).toBe(204);
    expect((await consentPage(first.cookie)).csrf).toBeUndefined();
    expect((await consentPage(res.headers.get("set-cookie")!.split(";")[0]!)).csrf).toBeString();
  });

  test("over https: the __Host- prefix and Secure", async () => {
    const secure = await startTestServer({ ...NO_SOURCES, BRAINBOX_PUBLIC_URL: "https://brainbox.example" });
    try {
      const { setCookie } = await signIn(secure.key, secure.url);
      expect(setCookie).toMatch(/^__Host-bb_session=bb_ws_\w{43}; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax; Secure$/);
      const out = await fetch(`${secure.url}/api/v1/web-session`, { method: "DELETE" });
      expect(out.headers.get("set-cookie")).toBe("__Host-bb_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax; Secure");
    } finally {
      await secure.close();
    }
  });
});

describe("the consent page with a session", () => {
  test("shows who is signed in; Allow with the session's CSRF token issues a code for that account", async () => {
    const { cookie } = await signIn();
    const { verifier, challenge } = pkcePair();
    const { html, formToken, csrf } = await consentPage(cookie, challenge);
    expect(html).toContain("Signed in as <strong>Owner</strong>");
    expect(html).toContain(">Allow</button>");
    expect(html).toContain('name="api_key"'); // pasting a key stays possible
    expect(html).not.toContain("<script");
    const res = await post({ form_token: formToken, csrf: csrf!, decision: "approve" }, cookie, { "sec-fetch-site": "same-origin" });
    expect(res.status).toBe(303);
    const back = new URL(res.headers.get("location")!);
    expect(back.origin + back.pathname).toBe(REDIRECT);
    expect(await accountNameOf(back.searchParams.get("code")!, verifier)).toBe("Owner");
  });

  test("CSRF: no token, a wrong one, another session's, a cross-site post, or no cookie are all refused", async () => {
    const mine = await signIn();
    const theirs = await signIn();
    const { formToken, csrf } = await consentPage(mine.cookie);
    const otherCsrf = (await consentPage(theirs.cookie)).csrf!;
    expect(otherCsrf).not.toBe(csrf);
    for (const [fields, cookie, headers, says] of [
      [{ form_token: formToken, decision: "approve" }, mine.cookie, {}, "not sent from this page"],
      [{ form_token: formToken, csrf: "0".repeat(64), decision: "approve" }, mine.cookie, {}, "not sent from this page"],
      [{ form_token: formToken, csrf: otherCsrf, decision: "approve" }, mine.cookie, {}, "not sent from this page"],
      [{ form_token: formToken, csrf: csrf!, decision: "approve" }, mine.cookie, { "sec-fetch-site": "cross-site" }, "not sent from this page"],
      [{ form_token: formToken, csrf: csrf!, decision: "approve" }, mine.cookie, { "sec-fetch-site": "same-site" }, "not sent from this page"],
      [{ form_token: formToken, csrf: csrf!, decision: "approve" }, null, {}, "Paste one of your API keys"],
      [{ form_token: formToken, csrf: csrf!, decision: "approve" }, "bb_session=bb_ws_forged", {}, "Paste one of your API keys"],
    ] as const) {
      const res = await post(fields, cookie, headers);
      expect(res.status).toBe(400);
      expect(res.headers.get("location")).toBeNull();
      expect(await res.text()).toContain(says);
    }
    // Deny needs no session (it grants nothing).
    const denied = await post({ form_token: formToken, decision: "deny" }, null);
    expect(new URL(denied.headers.get("location")!).searchParams.get("error")).toBe("access_denied");
  });

  test("a pasted key still wins: the key's account is connected, not the session's", async () => {
    const { cookie } = await signIn();
    const otherKey = await newAccountKey(s.ctx.db, "Key holder");
    const { verifier, challenge } = pkcePair();
    const { formToken, csrf } = await consentPage(cookie, challenge);
    const res = await post({ form_token: formToken, csrf: csrf!, api_key: otherKey, decision: "approve" }, cookie);
    expect(res.status).toBe(303);
    expect(await accountNameOf(new URL(res.headers.get("location")!).searchParams.get("code")!, verifier)).toBe("Key holder");
  });

  test("expired sessions, sessions of a revoked key, and sessions opened with a connector token do not consent", async () => {
    const expired = await signIn();
    await s.ctx.database.client.execute({ sql: "UPDATE web_sessions SET expires_at = ? WHERE hash = ?", args: [Date.now() - 1, sha256Hex(expired.cookie.split("=")[1]!)] });
    expect((await consentPage(expired.cookie)).csrf).toBeUndefined();

    const otherKey = await newAccountKey(s.ctx.db, "Revoker");
    const revokedKeySession = await signIn(otherKey);
    expect((await consentPage(revokedKeySession.cookie)).html).toContain("Signed in as <strong>Revoker</strong>");
    const { apiKeys } = await expectJson(await s.api("/api/user/api-keys", { key: otherKey }), 200);
    expect((await s.api(`/api/user/api-keys/${apiKeys[0].id}`, { method: "DELETE", key: otherKey })).status).toBe(204);
    expect((await consentPage(revokedKeySession.cookie)).csrf).toBeUndefined();

    // A connector's access token cannot open a session at all (owner-only), so it cannot consent through one;
    // a session opened by a token before this rule still cannot consent.
    const { verifier, challenge } = pkcePair();
    const page = await consentPage(null, challenge);
    const approved = await post({ form_token: page.formToken, api_key: s.key, decision: "approve" }, null);
    const tokens = await expectJson(await postForm(s.url, "/oauth/token", { grant_type: "authorization_code", code: new URL(approved.headers.get("location")!).searchParams.get("code")!, redirect_uri: REDIRECT, code_verifier: verifier, client_id: clientId }), 200);
    const refused = await fetch(`${s.url}/api/v1/web-session`, { method: "POST", headers: { authorization: `Bearer ${tokens.access_token}` } });
    expect((await expectJson(refused, 403)).error.code).toBe("insufficient_scope");
    expect(refused.headers.get("set-cookie")).toBeNull();
    const secret = `bb_ws_${"t".repeat(43)}`;
    const grant = await s.ctx.database.client.execute("SELECT id, account_id FROM oauth_grants ORDER BY created_at DESC LIMIT 1");
    await s.ctx.database.client.execute({
      sql: "INSERT INTO web_sessions (hash, id, account_id, via, credential_id, expires_at, created_at, last_seen_at) VALUES (?, 'ses_token', ?, 'access_token', ?, ?, ?, ?)",
      args: [sha256Hex(secret), String(grant.rows[0]!.account_id), String(grant.rows[0]!.id), Date.now() + 3600_000, Date.now(), Date.now()],
    });
    expect((await consentPage(`bb_session=${secret}`)).csrf).toBeUndefined();
  });

  test("sent here by another site without the cookie: the page reloads itself once (same-origin, so the Strict cookie comes)", async () => {
    const crossSite = { "sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate" };
    const refresh = '<meta http-equiv="refresh" content="0">';
    expect((await consentPage(null, undefined, crossSite)).html).toContain(refresh);
    expect((await consentPage(null, undefined, { "sec-fetch-site": "same-origin", "sec-fetch-mode": "navigate" })).html).not.toContain(refresh);
    expect((await consentPage(null)).html).not.toContain(refresh);
    const { cookie } = await signIn();
    const withCookie = await consentPage(cookie, undefined, crossSite);
    expect(withCookie.html).not.toContain(refresh);
    expect(withCookie.csrf).toBeString();
  });
});

describe("the SDK client's flow approved through the session", () => {
  test("401 → registration → consent (Allow, no key pasted) → tokens → tools", async () => {
    const { cookie } = await signIn();
    const provider = new MemoryOAuthProvider("http://127.0.0.1:4999/callback");
    const url = new URL(`${s.url}/mcp`);
    const transport = new StreamableHTTPClientTransport(url, { authProvider: provider });
    await expect(new Client({ name: "session-host", version: "1" }).connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
    const page = await fetch(provider.authorizationUrl!, { headers: { cookie } });
    const html = await page.text();
    const res = await post({ form_token: formTokenOf(html), csrf: csrfOf(html)!, decision: "approve" }, cookie);
    expect(res.status).toBe(303);
    await transport.finishAuth(new URL(res.headers.get("location")!).searchParams.get("code")!);
    const client = new Client({ name: "session-host", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));
    const listed = (await client.callTool({ name: "list_brains", arguments: {} })) as { isError?: boolean };
    expect(listed.isError).toBeFalsy();
    await client.close();
  });
});
