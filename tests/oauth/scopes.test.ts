// Scopes of OAuth access tokens (issue 54 item 4) and the strict consent POST (item 10), over real HTTP with
// a real OAuth flow: registration, the consent page approved with the owner's key, the code exchange. A
// token does what its grant's scopes allow (MCP's tools included) and never what only the owner may:
// minting or revoking keys, deleting brains, paid settings, grants, web sessions, consent. Revoking the
// grant ends every token it produced.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sha256Hex } from "../../src/lib/secrets";
import { connectMcp, textOf } from "../mcp/support";
import { expectJson, startTestServer, type TestServer } from "../support/server";
import { addTextsReady, newBrain } from "../support/sources";
import { formTokenOf, pkcePair, postConsent, postForm } from "./support";

const REDIRECT = "http://127.0.0.1:4555/cb";
const CONNECTOR_SCOPES = "brains:read ask sources:write brains:write account:read";
let s: TestServer;
let brainId: string;

beforeAll(async () => {
  s = await startTestServer({ BRAINBOX_AUTH_FAILURES_PER_MINUTE: "1000" });
  brainId = await newBrain(s, "Scoped brain");
  await addTextsReady(s, brainId, { Telescope: "The main telescope is a 2.4 metre reflector on the north ridge." });
});
afterAll(() => s?.close());

interface Connection {
  clientId: string;
  access: string;
  refresh: string;
  scope: string;
  consentHtml: string;
}

/** Registers a client, opens its consent page (with `scope`, if any), approves with the owner's key, exchanges the code. */
async function connect(scope?: string): Promise<Connection> {
  const reg = await expectJson(
    await fetch(`${s.url}/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ client_name: "Scoped app", redirect_uris: [REDIRECT], token_endpoint_auth_method: "none" }),
    }),
    201,
  );
  const { verifier, challenge } = pkcePair();
  const url = new URL(`${s.url}/oauth/authorize`);
  const params: Record<string, string> = { response_type: "code", client_id: reg.client_id, redirect_uri: REDIRECT, code_challenge: challenge, code_challenge_method: "S256", state: "st" };
  if (scope !== undefined) params.scope = scope;
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  const page = await fetch(url);
  expect(page.status).toBe(200);
  const consentHtml = await page.text();
  const approved = await postConsent(s.url, { form_token: formTokenOf(consentHtml), api_key: s.key, decision: "approve" });
  expect(approved.status).toBe(303);
  const code = new URL(approved.headers.get("location")!).searchParams.get("code")!;
  const tokens = await expectJson(await postForm(s.url, "/oauth/token", { grant_type: "authorization_code", code, redirect_uri: REDIRECT, code_verifier: verifier, client_id: reg.client_id }), 200);
  return { clientId: reg.client_id, access: tokens.access_token, refresh: tokens.refresh_token, scope: tokens.scope, consentHtml };
}

/** A 403 insufficient_scope with the RFC 6750 challenge; `scope` null for an owner-only route. */
async function expectInsufficient(res: Response, scope: string | null) {
  const body = await expectJson(res, 403);
  expect(body.error.code).toBe("insufficient_scope");
  expect(body.error.required).toBe(scope ?? "owner");
  const challenge = res.headers.get("www-authenticate")!;
  expect(challenge).toStartWith('Bearer realm="brainbox", error="insufficient_scope"');
  if (scope) expect(challenge).toContain(`scope="${scope}"`);
  else expect(challenge).not.toContain("scope=");
}

describe("what an access token may never do, whatever its scopes", () => {
  let token: Connection;
  beforeAll(async () => {
    token = await connect(); // no scope asked: every connector scope
  });

  test("a token asking for nothing gets every connector scope (and the consent page says so)", () => {
    expect(token.scope).toBe(CONNECTOR_SCOPES);
    for (const scope of CONNECTOR_SCOPES.split(" ")) expect(token.consentHtml).toContain(`<code>${scope}</code>`);
    expect(token.consentHtml).not.toContain("full access");
  });

  test("it cannot mint, list or revoke API keys: the owner's keys stay as they were", async () => {
    const before = await expectJson(await s.api("/api/user/api-keys"), 200);
    await expectInsufficient(await s.api("/api/user/api-keys", { method: "POST", json: { name: "minted by a connector" }, key: token.access }), null);
    await expectInsufficient(await s.api("/api/user/api-keys", { key: token.access }), null);
    await expectInsufficient(await s.api(`/api/user/api-keys/${before.apiKeys[0].id}`, { method: "DELETE", key: token.access }), null);
    const after = await expectJson(await s.api("/api/user/api-keys"), 200);
    expect(after.apiKeys).toEqual(before.apiKeys.map((k: any) => ({ ...k, lastUsedAt: after.apiKeys.find((a: any) => a.id === k.id).lastUsedAt })));
    expect(after.apiKeys.every((k: any) => k.revokedAt === null)).toBe(true);
    // The owner's key still works.
    await expectJson(await s.api("/api/v1/brains"), 200);
  });

  test("it cannot delete brains, change paid settings, manage accounts, grants or web sessions", async () => {
    const doomed = await newBrain(s, "Not deletable by a token");
    await expectInsufficient(await s.api(`/api/v1/brains/${doomed}`, { method: "DELETE", key: token.access }), null);
    await expectJson(await s.api(`/api/v1/brains/${doomed}`), 200);
    await expectInsufficient(await s.api(`/api/v1/brains/${doomed}/paid`, { method: "PUT", json: { priceAtomic: "1000", payTo: "0x" + "1".repeat(40) }, key: token.access }), null);
    await expectInsufficient(await s.api(`/api/v1/brains/${doomed}/paid`, { method: "DELETE", key: token.access }), null);
    await expectInsufficient(await s.api("/api/v1/admin/accounts", { method: "POST", json: { name: "Sock puppet" }, key: token.access }), null);
    await expectInsufficient(await s.api("/api/v1/admin/accounts", { key: token.access }), null);
    await expectInsufficient(await s.api("/api/user/oauth-grants", { key: token.access }), null);
    const { grants } = await expectJson(await s.api("/api/user/oauth-grants"), 200);
    await expectInsufficient(await s.api(`/api/user/oauth-grants/${grants[0].id}`, { method: "DELETE", key: token.access }), null);
    const session = await fetch(`${s.url}/api/v1/web-session`, { method: "POST", headers: { authorization: `Bearer ${token.access}` } });
    await expectInsufficient(session, null);
    expect(session.headers.get("set-cookie")).toBeNull();
  });

  test("it cannot approve another client on the consent page", async () => {
    const reg = await expectJson(await fetch(`${s.url}/oauth/register`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ client_name: "Second app", redirect_uris: [REDIRECT], token_endpoint_auth_method: "none" }) }), 201);
    const url = new URL(`${s.url}/oauth/authorize`);
    for (const [k, v] of Object.entries({ response_type: "code", client_id: reg.client_id, redirect_uri: REDIRECT, code_challenge: pkcePair().challenge, code_challenge_method: "S256" })) url.searchParams.set(k, v);
    const html = await (await fetch(url)).text();
    const res = await postConsent(s.url, { form_token: formTokenOf(html), api_key: token.access, decision: "approve" });
    expect(res.status).toBe(400);
    expect(res.headers.get("location")).toBeNull();
  });

  test("the owner-only refusals come before the body is read (no body validation leaks)", async () => {
    const res = await s.api("/api/user/api-keys", { method: "POST", json: { name: "" }, key: token.access });
    expect((await expectJson(res, 403)).error.code).toBe("insufficient_scope");
  });
});

describe("what MCP hosts need keeps working", () => {
  test("a token with the MCP scopes lists, asks, gets context, searches, fetches and adds sources", async () => {
    const token = await connect("brains:read ask sources:write");
    expect(token.scope).toBe("brains:read ask sources:write");
    const mcp = await connectMcp(s.url, token.access);
    const tools = (await mcp.client.listTools()).tools.map((t) => t.name).sort();
    expect(tools).toEqual(["add_source", "ask_brain", "ask_brain_set", "fetch", "get_context", "list_brains", "list_connectors", "list_paid_brains", "list_sources", "page_links", "read_page", "search", "wiki_graph"]);
    expect((await mcp.call("list_brains")).structuredContent.brains.map((b: any) => b.id)).toContain(brainId);
    const asked = await mcp.call("ask_brain", { brainId, question: "How big is the main telescope?" });
    expect(asked.isError).toBeFalsy();
    expect(asked.structuredContent.answer).toContain("2.4");
    expect((await mcp.call("get_context", { brainId, query: "telescope" })).structuredContent.pages.length).toBeGreaterThan(0);
    const found = JSON.parse(textOf(await mcp.call("search", { query: "telescope" })));
    expect(found.results.length).toBeGreaterThan(0);
    expect((await mcp.call("fetch", { id: found.results[0].id })).isError).toBeFalsy();
    expect((await mcp.call("add_source", { brainId, kind: "note", title: "From a host", content: "Added over MCP." })).structuredContent.created).toBe(true);
    await mcp.close();
    // The same scopes on HTTP.
    await expectJson(await s.api(`/api/v1/brains/${brainId}/ask`, { method: "POST", json: { question: "How big is the main telescope?" }, key: token.access }), 200);
    await expectJson(await s.api(`/api/v1/brains/${brainId}/sources`, { method: "POST", json: { title: "Over HTTP", content: "A connector's note." }, key: token.access }), 201);
  });

  test("a narrowed token: the consent page shows only what was asked; other routes and tools are refused", async () => {
    const token = await connect("brains:read some-host-scope");
    expect(token.scope).toBe("brains:read");
    expect(token.consentHtml).toContain("<code>brains:read</code>");
    expect(token.consentHtml).not.toContain("<code>ask</code>");
    await expectJson(await s.api(`/api/v1/brains/${brainId}`, { key: token.access }), 200);
    await expectInsufficient(await s.api(`/api/v1/brains/${brainId}/ask`, { method: "POST", json: { question: "How big?" }, key: token.access }), "ask");
    await expectInsufficient(await s.api(`/api/v1/brains/${brainId}/sources`, { method: "POST", json: { title: "x", content: "y" }, key: token.access }), "sources:write");
    await expectInsufficient(await s.api("/api/v1/brains", { method: "POST", json: { name: "New" }, key: token.access }), "brains:write");
    const mcp = await connectMcp(s.url, token.access);
    const tools = (await mcp.client.listTools()).tools.map((t) => t.name);
    expect(tools).toContain("list_brains");
    expect(tools).not.toContain("ask_brain");
    expect(tools).not.toContain("add_source");
    expect((await mcp.call("ask_brain", { brainId, question: "How big?" })).isError).toBe(true);
    await mcp.close();
  });

  test("a refresh may not widen the grant, and a refused widening does not spend the refresh token", async () => {
    const token = await connect("brains:read");
    const wider = await postForm(s.url, "/oauth/token", { grant_type: "refresh_token", refresh_token: token.refresh, client_id: token.clientId, scope: "brains:read ask" });
    expect(await expectJson(wider, 400)).toMatchObject({ error: "invalid_scope" });
    const same = await expectJson(await postForm(s.url, "/oauth/token", { grant_type: "refresh_token", refresh_token: token.refresh, client_id: token.clientId }), 200);
    expect(same.scope).toBe("brains:read");
  });

  test("grants from before scopes (scope brainbox) keep every connector scope, never the owner's routes", async () => {
    const token = await connect("brainbox");
    expect(token.scope).toBe(CONNECTOR_SCOPES);
    await s.ctx.database.client.execute({ sql: "UPDATE oauth_grants SET scope = 'brainbox' WHERE id = (SELECT grant_id FROM oauth_tokens WHERE hash = ?)", args: [sha256Hex(token.access)] });
    await expectJson(await s.api("/api/v1/account", { key: token.access }), 200);
    await expectInsufficient(await s.api("/api/user/api-keys", { method: "POST", json: { name: "no" }, key: token.access }), null);
  });
});

describe("revoking a grant revokes everything it produced", () => {
  test("access and refresh tokens, on HTTP and MCP", async () => {
    const token = await connect();
    const { grants } = await expectJson(await s.api("/api/user/oauth-grants"), 200);
    const grant = grants.find((g: any) => g.client.id === token.clientId);
    // What the token tried to mint while live (issue 54: a key that outlived the grant) does not exist.
    expect((await s.api("/api/user/api-keys", { method: "POST", json: { name: "before revoke" }, key: token.access })).status).toBe(403);
    expect((await s.api(`/api/user/oauth-grants/${grant.id}`, { method: "DELETE" })).status).toBe(204);
    expect((await s.api("/api/v1/brains", { key: token.access })).status).toBe(401);
    expect((await s.api("/api/user/api-keys", { method: "POST", json: { name: "late" }, key: token.access })).status).toBe(401);
    const refreshed = await postForm(s.url, "/oauth/token", { grant_type: "refresh_token", refresh_token: token.refresh, client_id: token.clientId });
    expect(await expectJson(refreshed, 400)).toMatchObject({ error: "invalid_grant" });
    const mcp = await fetch(`${s.url}/mcp`, {
      method: "POST",
      headers: { authorization: `Bearer ${token.access}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(mcp.status).toBe(401);
    // Nothing else was minted under it: the account's keys are only the owner's.
    const keys = await expectJson(await s.api("/api/user/api-keys"), 200);
    expect(keys.apiKeys.map((k: any) => k.name)).not.toContain("late");
    expect(keys.apiKeys.map((k: any) => k.name)).not.toContain("before revoke");
  });
});

describe("the consent POST checks its Origin strictly", () => {
  async function freshForm() {
    const reg = await expectJson(await fetch(`${s.url}/oauth/register`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ client_name: "Origin app", redirect_uris: [REDIRECT], token_endpoint_auth_method: "none" }) }), 201);
    const url = new URL(`${s.url}/oauth/authorize`);
    for (const [k, v] of Object.entries({ response_type: "code", client_id: reg.client_id, redirect_uri: REDIRECT, code_challenge: pkcePair().challenge, code_challenge_method: "S256" })) url.searchParams.set(k, v);
    return { form_token: formTokenOf(await (await fetch(url)).text()), api_key: s.key, decision: "approve" };
  }

  test("no Origin, another site's Origin, or Sec-Fetch-Site cross-site: refused, no code", async () => {
    for (const headers of [{}, { origin: "https://evil.example" }, { origin: "null" }, { origin: s.url, "sec-fetch-site": "cross-site" }, { "sec-fetch-site": "same-origin" }]) {
      const res = await postConsent(s.url, await freshForm(), headers as Record<string, string>);
      expect(res.status).toBe(400);
      expect(res.headers.get("location")).toBeNull();
      expect(await res.text()).toContain("not sent from this page");
    }
  });

  test("this server's Origin (with or without Sec-Fetch-Site same-origin): approved", async () => {
    const allowed: Record<string, string>[] = [{ origin: s.url }, { origin: s.url, "sec-fetch-site": "same-origin" }];
    for (const headers of allowed) {
      const res = await postConsent(s.url, await freshForm(), headers);
      expect(res.status).toBe(303);
      expect(new URL(res.headers.get("location")!).searchParams.get("code")).toStartWith("bb_ac_");
    }
  });

  test("the consent page sends its Origin on its own POSTs (Referrer-Policy same-origin, not no-referrer)", async () => {
    const reg = await expectJson(await fetch(`${s.url}/oauth/register`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ client_name: "Policy app", redirect_uris: [REDIRECT], token_endpoint_auth_method: "none" }) }), 201);
    const url = new URL(`${s.url}/oauth/authorize`);
    for (const [k, v] of Object.entries({ response_type: "code", client_id: reg.client_id, redirect_uri: REDIRECT, code_challenge: pkcePair().challenge, code_challenge_method: "S256" })) url.searchParams.set(k, v);
    const page = await fetch(url);
    expect(page.headers.get("referrer-policy")).toBe("same-origin");
    expect(page.headers.get("x-frame-options")).toBe("DENY");
    expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
  });
});

describe("/swagger", () => {
  test("sends a strict Content-Security-Policy that still lets its own assets load", async () => {
    const res = await fetch(`${s.url}/swagger`);
    expect(res.status).toBe(200);
    const csp = res.headers.get("content-security-policy")!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    // Everything the page loads is on this server and allowed by that policy: no inline script at all.
    const html = await res.text();
    expect(html).not.toMatch(/<script>(?!<)/);
    for (const src of [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!)) {
      expect(src).toStartWith("/swagger/");
      expect((await fetch(s.url + src)).status).toBe(200);
    }
    expect((await fetch(`${s.url}/swagger/json`)).status).toBe(200);
  });

  test("the swagger plugin's own page, which loads its code from a CDN, is never served: it leads to /swagger", async () => {
    for (const path of ["/swagger/scalar", "/swagger/scalar?x=1"]) {
      const res = await fetch(`${s.url}${path}`, { redirect: "manual" });
      expect({ path, status: res.status, location: res.headers.get("location") }).toEqual({ path, status: 308, location: "/swagger" });
      expect(await res.text()).not.toContain("cdn");
    }
  });
});
