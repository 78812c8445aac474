// MCP authorization 2025-11-25: client ID metadata documents (a client_id that is the URL of its metadata,
// fetched with the link fetcher's SSRF rules, validated, capped, cached) and the scope in 401 challenges,
// on /mcp and on the HTTP API. The documents are served from a loopback server on the fetch allow-list;
// the HTTPS rule and the address rules are checked on literal URLs that are never connected to.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { parseAllowList } from "../../src/ingest";
import { CLIENT_METADATA_MAX_BYTES, clientIdUrlProblem } from "../../src/modules/oauth/client-metadata";
import { expectJson, NO_SOURCES, startTestServer, type TestServer } from "../support/server";
import { formTokenOf, MemoryOAuthProvider, pkcePair, postConsent, postForm } from "./support";

const REDIRECT = "http://127.0.0.1:4567/callback";
let s: TestServer;
let docs: ReturnType<typeof Bun.serve>;
/** What the document server answers per path; each request is counted. */
const served = new Map<string, () => Response>();
const hits = new Map<string, number>();
let origin: string;

beforeAll(async () => {
  docs = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const path = new URL(req.url).pathname;
      hits.set(path, (hits.get(path) ?? 0) + 1);
      return served.get(path)?.() ?? new Response("not found", { status: 404 });
    },
  });
  origin = `http://127.0.0.1:${docs.port}`;
  s = await startTestServer({ ...NO_SOURCES, BRAINBOX_AUTH_FAILURES_PER_MINUTE: "1000", BRAINBOX_FETCH_ALLOW_HOSTS: `127.0.0.1:${docs.port}` });
});
afterAll(async () => {
  await s?.close();
  docs?.stop(true);
});

/** Serves a JSON document at `path` and returns its URL (the client_id). */
function publish(path: string, doc: (clientId: string) => unknown): string {
  const clientId = origin + path;
  served.set(path, () => Response.json(doc(clientId)));
  return clientId;
}

const document = (clientId: string, extra: Record<string, unknown> = {}) => ({
  client_id: clientId,
  client_name: "Metadata App",
  client_uri: "https://metadata-app.example",
  redirect_uris: [REDIRECT],
  grant_types: ["authorization_code", "refresh_token"],
  response_types: ["code"],
  token_endpoint_auth_method: "none",
  ...extra,
});

function authorizeUrl(clientId: string, challenge: string, redirectUri = REDIRECT): URL {
  const url = new URL(`${s.url}/oauth/authorize`);
  const params = { response_type: "code", client_id: clientId, redirect_uri: redirectUri, code_challenge: challenge, code_challenge_method: "S256", state: "st", resource: `${s.url}/mcp` };
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url;
}

describe("discovery", () => {
  test("the authorization server says it supports client ID metadata documents", async () => {
    const meta = await expectJson(await fetch(`${s.url}/.well-known/oauth-authorization-server`), 200);
    expect(meta.client_id_metadata_document_supported).toBe(true);
  });

  test("the MCP SDK client then uses its metadata URL as client_id and never registers", async () => {
    const provider = new MemoryOAuthProvider(REDIRECT);
    Object.assign(provider, { clientMetadataUrl: "https://connector.example/oauth/client.json" });
    const transport = new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { authProvider: provider });
    await expect(new Client({ name: "cimd", version: "1" }).connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
    // Only the authorization URL was built (nothing connects to connector.example).
    expect(provider.authorizationUrl!.searchParams.get("client_id")).toBe("https://connector.example/oauth/client.json");
    expect(provider.client?.client_id).toBe("https://connector.example/oauth/client.json");
    const registered = await s.ctx.database.client.execute("SELECT count(*) AS n FROM oauth_clients");
    expect(Number(registered.rows[0]!.n)).toBe(0);
  });
});

describe("a metadata document client, end to end over HTTP", () => {
  test("consent names it, the code and tokens are bound to the URL client_id, the document is cached", async () => {
    const clientId = publish("/apps/good/client.json", (id) => document(id));
    const { verifier, challenge } = pkcePair();
    const page = await fetch(authorizeUrl(clientId, challenge));
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain("Metadata App");
    expect(html).toContain(`published at <code>127.0.0.1:${docs.port}</code>`);
    const approved = await postConsent(s.url, { form_token: formTokenOf(html), api_key: s.key, decision: "approve" });
    expect(approved.status).toBe(303);
    const back = new URL(approved.headers.get("location")!);
    const code = back.searchParams.get("code")!;
    const tokens = await expectJson(await postForm(s.url, "/oauth/token", { grant_type: "authorization_code", code, redirect_uri: REDIRECT, code_verifier: verifier, client_id: clientId }), 200);
    expect(tokens.access_token).toMatch(/^bb_at_/);
    await expectJson(await s.api("/api/v1/brains", { key: tokens.access_token }), 200);
    // Refresh works with the URL client_id too.
    const refreshed = await expectJson(await postForm(s.url, "/oauth/token", { grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: clientId }), 200);
    expect(refreshed.access_token).toMatch(/^bb_at_/);
    // The grant lists it by its name and URL.
    const { grants } = await expectJson(await s.api("/api/user/oauth-grants"), 200);
    expect(grants.find((g: any) => g.client.id === clientId)?.client.name).toBe("Metadata App");
    // Fetched once: the second authorization uses the cached copy.
    expect(hits.get("/apps/good/client.json")).toBe(1);
    expect((await fetch(authorizeUrl(clientId, challenge))).status).toBe(200);
    expect(hits.get("/apps/good/client.json")).toBe(1);
    // A stale copy is fetched again, and a changed document takes effect (here: the redirect URI moved).
    await s.ctx.database.client.execute({ sql: "UPDATE oauth_clients SET metadata = json_set(metadata, '$.fetched_at', 0) WHERE id = ?", args: [clientId] });
    served.set("/apps/good/client.json", () => Response.json(document(clientId, { redirect_uris: ["http://127.0.0.1:4567/moved"] })));
    const stale = await fetch(authorizeUrl(clientId, challenge), { redirect: "manual" });
    expect(stale.status).toBe(400);
    expect(stale.headers.get("location")).toBeNull();
    expect(hits.get("/apps/good/client.json")).toBe(2);
    expect((await fetch(authorizeUrl(clientId, challenge, "http://127.0.0.1:4567/moved"))).status).toBe(200);
  });

  test("documents that cannot be used are refused as a page, never a redirect", async () => {
    const { challenge } = pkcePair();
    const cases: Array<[string, (id: string) => Response, string]> = [
      ["/bad/mismatch.json", () => Response.json(document(`${origin}/other.json`)), "does not match its URL"],
      ["/bad/no-redirects.json", (id) => Response.json(document(id, { redirect_uris: [] })), "redirect_uris"],
      ["/bad/http-redirect.json", (id) => Response.json(document(id, { redirect_uris: ["http://evil.example/cb"] })), "non-loopback"],
      ["/bad/secret.json", (id) => Response.json(document(id, { token_endpoint_auth_method: "client_secret_basic" })), "not supported"],
      ["/bad/secret-value.json", (id) => Response.json(document(id, { client_secret: "shh" })), "client secret"],
      ["/bad/grant.json", (id) => Response.json(document(id, { grant_types: ["client_credentials"] })), "grant_types"],
      ["/bad/not-json.json", () => new Response("<html>hi</html>"), "not valid JSON"],
      ["/bad/array.json", () => Response.json([1]), "JSON object"],
      ["/bad/huge.json", (id) => Response.json(document(id, { padding: "x".repeat(CLIENT_METADATA_MAX_BYTES) })), "larger than"],
      ["/bad/missing.json", () => new Response("gone", { status: 404 }), "HTTP 404"],
      ["/bad/redirected.json", () => new Response(null, { status: 302, headers: { location: `${origin}/apps/good/client.json` } }), "redirects"],
    ];
    for (const [path, respond, reason] of cases) {
      served.set(path, () => respond(origin + path));
      const res = await fetch(authorizeUrl(origin + path, challenge), { redirect: "manual" });
      const html = await res.text();
      expect({ path, status: res.status, location: res.headers.get("location") }).toEqual({ path, status: 400, location: null });
      expect({ path, says: html.includes(reason) }).toEqual({ path, says: true });
    }
    // Nothing was stored for them: the token endpoint does not know these clients.
    const token = await postForm(s.url, "/oauth/token", { grant_type: "authorization_code", code: "x", redirect_uri: REDIRECT, code_verifier: "v", client_id: `${origin}/bad/mismatch.json` });
    expect((await expectJson(token, 401)).error).toBe("invalid_client");
  });

  test("a slow document server hits the time cap", async () => {
    const path = "/slow/client.json";
    served.set(path, () => new Response(new ReadableStream({ start() {} }), { headers: { "content-type": "application/json" } }));
    // The document never finishes: only the time cap can end the fetch ("longer than").
    const res = await fetch(authorizeUrl(origin + path, pkcePair().challenge), { redirect: "manual" });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("longer than");
  });
});

describe("client_id URLs refused before any connection", () => {
  test("https only, a path, no fragment, credentials or dot segments, canonical; private addresses blocked", async () => {
    const allow = parseAllowList("127.0.0.1:9");
    expect(clientIdUrlProblem("https://app.example/client.json", allow)).toBeNull();
    expect(clientIdUrlProblem("http://127.0.0.1:9/client.json", allow)).toBeNull(); // the operator's allow-listed host
    for (const [url, why] of [
      ["http://app.example/client.json", "https"],
      ["http://127.0.0.1:10/client.json", "https"],
      ["https://app.example/", "path"],
      ["https://app.example", "path"],
      ["https://app.example/c.json#x", "fragment"],
      ["https://user:pw@app.example/c.json", "credentials"],
      ["https://app.example/a/../c.json", ". or .."],
      ["https://app.example/a/./c.json", ". or .."],
      ["https://APP.example/c.json", "canonical"],
      ["https://app.example:443/c.json", "canonical"],
    ] as const)
      expect({ url, problem: clientIdUrlProblem(url, allow)?.includes(why) }).toEqual({ url, problem: true });

    // Over HTTP: refused as a page; loopback and private literals are blocked by the SSRF rules, so nothing
    // is ever connected to (the document server on the allow-list counts every request it gets).
    const before = [...hits.values()].reduce((a, b) => a + b, 0);
    const { challenge } = pkcePair();
    for (const [clientId, says] of [
      ["http://app.example/client.json", "must use https"],
      [`http://127.0.0.1:${docs.port! + 1}/client.json`, "must use https"],
      ["https://10.0.0.7/client.json", "private network"],
      ["https://169.254.169.254/latest/meta-data.json", "metadata service"],
      ["https://[::1]/client.json", "loopback"],
      ["https://localhost/client.json", "loopback name"],
    ] as const) {
      const res = await fetch(authorizeUrl(clientId, challenge), { redirect: "manual" });
      const html = await res.text();
      expect({ clientId, status: res.status, says: html.includes(says) }).toEqual({ clientId, status: 400, says: true });
    }
    expect([...hits.values()].reduce((a, b) => a + b, 0)).toBe(before);
  });
});

describe("401 challenges name the resource metadata and the scope", () => {
  const ALL = "brains:read ask sources:write brains:write account:read";
  test("/mcp and the HTTP API (both surfaces), without and with a bad credential", async () => {
    const init = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } } });
    const mcp = await fetch(`${s.url}/mcp`, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: init });
    expect(mcp.status).toBe(401);
    expect(mcp.headers.get("www-authenticate")).toBe(`Bearer realm="brainbox", resource_metadata="${s.url}/.well-known/oauth-protected-resource/mcp", scope="brains:read ask sources:write"`);

    for (const path of ["/api/v1/brains", "/api/brains", "/api/v1/account", "/api/user/oauth-grants"]) {
      const none = await s.api(path, { key: null });
      expect((await expectJson(none, 401)).error.code).toBe("unauthorized");
      expect(none.headers.get("www-authenticate")).toBe(`Bearer realm="brainbox", resource_metadata="${s.url}/.well-known/oauth-protected-resource", scope="${ALL}"`);
      const bad = await s.api(path, { key: "bb_live_nope" });
      expect(bad.status).toBe(401);
      expect(bad.headers.get("www-authenticate")).toStartWith(`Bearer realm="brainbox", resource_metadata="${s.url}/.well-known/oauth-protected-resource", scope="${ALL}", error="invalid_token", error_description="`);
    }
    // The header is readable from a browser (CORS exposes it).
    const cors = await s.api("/api/v1/brains", { key: null, headers: { origin: "https://elsewhere.example" } });
    expect(cors.headers.get("access-control-expose-headers")).toContain("www-authenticate");
    // And what it points at says where to get a token.
    expect(await expectJson(await fetch(`${s.url}/.well-known/oauth-protected-resource`), 200)).toMatchObject({ authorization_servers: [s.url], scopes_supported: ALL.split(" ") });
  });
});
