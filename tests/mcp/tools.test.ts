// The MCP endpoint with the SDK's own client and an API key: every tool, the same citations, thin, 404
// rules and metering as the HTTP API, and the protocol's bad inputs.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { newAccountKey } from "../support/accounts";
import { expectJson, startTestServer, type TestServer } from "../support/server";
import { newBrain, waitForSource } from "../support/sources";
import { connectMcp, rawMcp, textOf, type McpSession } from "./support";

const ENERGY: Record<string, string> = {
  "Solar Panels":
    "Solar panels convert sunlight into electricity using photovoltaic cells. A typical residential solar panel produces about 350 watts of power. Most solar panels keep working for 25 to 30 years.",
  "Heat Pumps":
    "A heat pump moves heat from the outside air into a house. Heat pumps are about three times more efficient than electric resistance heaters. The heat pump was invented by Peter von Rittinger in 1856.",
};
const TIDAL = `<!doctype html><html><head><title>Tidal Power Explained</title></head><body><article><h1>Tidal Power Explained</h1>
<p>Tidal power converts the energy of tides into electricity. Tidal barrages were first built in France in 1966.</p>
<p>Unlike wind, tides are predictable years in advance, which makes tidal output easy to schedule.</p></article></body></html>`;
const SOLAR_QUESTION = "How much power does a residential solar panel produce?";

let s: TestServer;
let site: ReturnType<typeof Bun.serve>;
let mcp: McpSession;
let brainId: string;
const sourceIds: string[] = [];

beforeAll(async () => {
  site = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response(TIDAL, { headers: { "content-type": "text/html; charset=utf-8" } }) });
  s = await startTestServer({
    BRAINBOX_FETCH_ALLOW_HOSTS: `127.0.0.1:${site.port}`,
    BRAINBOX_FREE_BANK: "2",
    BRAINBOX_AUTH_FAILURES_PER_MINUTE: "1000",
  });
  brainId = await newBrain(s, "Home Energy");
  mcp = await connectMcp(s.url, s.key);
});
afterAll(async () => {
  await mcp?.close();
  await s?.close();
  site?.stop(true);
});

const usage = async (key = s.key) => (await expectJson(await s.api("/api/v1/account", { key }), 200)).usage;

describe("tools/list", () => {
  test("every tool, with a description and a JSON schema", async () => {
    const { tools } = await mcp.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      "add_source",
      "ask_brain",
      "ask_brain_set",
      "fetch",
      "get_context",
      "list_brains",
      "list_connectors",
      "list_paid_brains",
      "list_sources",
      "page_links",
      "read_page",
      "search",
      "wiki_graph",
    ]);
    for (const tool of tools) {
      expect(tool.description!.length).toBeGreaterThan(60);
      expect(tool.inputSchema.type).toBe("object");
    }
    const ask = tools.find((t) => t.name === "ask_brain")!;
    expect(ask.inputSchema.required).toEqual(["brainId", "question"]);
    expect((ask.inputSchema.properties as any).question).toMatchObject({ type: "string", minLength: 1, maxLength: 4000 });
    const add = tools.find((t) => t.name === "add_source")!;
    expect((add.inputSchema.properties as any).kind.enum).toEqual(["text", "link", "note"]);
  });
});

describe("sources", () => {
  test("add_source: text, note and link; an externalId already used returns the source with created: false", async () => {
    for (const [title, content] of Object.entries(ENERGY)) {
      const r = await mcp.call("add_source", { brainId, kind: "text", title, content, externalId: title });
      expect(r.isError).toBeFalsy();
      expect(r.structuredContent).toEqual({ source: { id: expect.stringMatching(/^src_/), type: "text", title, status: "pending", externalId: title }, created: true });
      sourceIds.push(r.structuredContent.source.id);
    }
    const again = await mcp.call("add_source", { brainId, kind: "text", title: "Solar Panels", content: ENERGY["Solar Panels"], externalId: "Solar Panels" });
    expect(again.structuredContent).toMatchObject({ source: { id: sourceIds[0] }, created: false });
    expect(textOf(again)).toContain("Already there");

    const note = await mcp.call("add_source", { brainId, kind: "note", title: "Grid Notes", content: "# Grid\n\nThe grid frequency in Europe is 50 hertz." });
    expect(note.structuredContent.source).toMatchObject({ type: "note", title: "Grid Notes" });
    const link = await mcp.call("add_source", { brainId, kind: "link", url: `http://127.0.0.1:${site.port}/tidal` });
    expect(link.structuredContent.source).toMatchObject({ type: "link", status: "pending" });
    sourceIds.push(note.structuredContent.source.id, link.structuredContent.source.id);
    for (const id of sourceIds) expect((await waitForSource(s, brainId, id)).status).toBe("ready");
  });

  test("add_source refuses what the HTTP API refuses, naming the field", async () => {
    const noContent = await mcp.call("add_source", { brainId, kind: "text", title: "Empty" });
    expect(noContent.isError).toBe(true);
    expect(noContent.structuredContent.error).toMatchObject({ code: "invalid_request", field: "content" });
    const privateLink = await mcp.call("add_source", { brainId, kind: "link", url: "http://169.254.169.254/latest/meta-data" });
    expect(privateLink.structuredContent.error).toMatchObject({ code: "invalid_request", field: "url" });
  });

  test("list_sources and list_brains", async () => {
    const sources = await mcp.call("list_sources", { brainId });
    expect(sources.structuredContent.sources).toHaveLength(4);
    expect(sources.structuredContent.sources.every((x: any) => x.status === "ready" && x.pageCount > 0)).toBe(true);
    expect(textOf(sources)).toContain("[ready] Solar Panels");
    const brains = await mcp.call("list_brains", {});
    expect(brains.structuredContent.brains).toContainEqual({ id: brainId, name: "Home Energy", slug: "home-energy", emoji: "🧠", visibility: "private", sourceCount: 4, owned: true, role: "owner" });
    expect(textOf(brains)).toContain(brainId);
  });
});

describe("answers", () => {
  test("ask_brain: the v1 answer's citations and thin, metered like the v1 ask, recorded as an mcp ask", async () => {
    const before = await usage();
    const r = await mcp.call("ask_brain", { brainId, question: SOLAR_QUESTION });
    expect(r.isError).toBeFalsy();
    const body = r.structuredContent;
    expect(Object.keys(body).sort()).toEqual(["answer", "bank", "citations", "conversationId", "id", "quota", "standaloneQuestion", "thin"]);
    const url = `${s.url}/api/v1/brains/${brainId}/pages/solar-panels`;
    expect(body.thin).toBe(false);
    expect(body.citations).toContainEqual({ slug: "solar-panels", title: "Solar Panels", url });
    expect(body.answer).toContain(`[Solar Panels](${url})`);
    expect(body.quota).toMatchObject({ limit: 10000, used: before.quota.used + 1 });
    expect(textOf(r)).toContain("350 watts");
    expect(textOf(r)).toContain(`Sources:\n1. Solar Panels: ${url}`);
    const saved = await s.ctx.database.client.execute({ sql: "SELECT surface, thin FROM asks WHERE id = ?", args: [body.id] });
    expect(saved.rows[0]).toMatchObject({ surface: "mcp", thin: 0 });

    // The HTTP v1 ask of the same question: the same answer and citations.
    const http = await expectJson(await s.api(`/api/v1/brains/${brainId}/ask`, { method: "POST", json: { question: SOLAR_QUESTION } }), 200);
    expect(http.answer).toBe(body.answer);
    expect(http.citations).toEqual(body.citations);
    expect(http.quota.used).toBe(body.quota.used + 1);
  });

  test("ask_brain: a thin answer cites nothing, says so, and still counts", async () => {
    const before = await usage();
    const r = await mcp.call("ask_brain", { brainId, question: "What is the airspeed of quantum zebras?" });
    expect(r.structuredContent).toMatchObject({ thin: true, citations: [] });
    expect(textOf(r)).toContain("thin");
    expect((await usage()).quota.used).toBe(before.quota.used + 1);
  });

  test("get_context: pages with URLs and markdown, never metered", async () => {
    const before = await usage();
    const r = await mcp.call("get_context", { brainId, query: "heat pump inventor" });
    expect(r.structuredContent.thin).toBe(false);
    expect(r.structuredContent.pages[0]).toEqual({ slug: "heat-pumps", title: "Heat Pumps", url: `${s.url}/api/v1/brains/${brainId}/pages/heat-pumps`, score: 1 });
    expect(r.structuredContent.context).toContain("Rittinger");
    const http = await expectJson(await s.api(`/api/v1/brains/${brainId}/context`, { method: "POST", json: { query: "heat pump inventor" } }), 200);
    expect(http).toEqual(r.structuredContent);
    expect((await usage()).quota.used).toBe(before.quota.used);
  });

  test("read_page: markdown, links and URL; an unknown slug is not_found", async () => {
    const r = await mcp.call("read_page", { brainId, slug: "heat-pumps" });
    expect(r.structuredContent.page).toMatchObject({ slug: "heat-pumps", title: "Heat Pumps", url: `${s.url}/api/v1/brains/${brainId}/pages/heat-pumps` });
    expect(r.structuredContent.page.markdown).toContain("Peter von Rittinger");
    expect(r.structuredContent.page.html).toBeUndefined();
    const missing = await mcp.call("read_page", { brainId, slug: "nope" });
    expect(missing.isError).toBe(true);
    expect(missing.structuredContent.error.code).toBe("not_found");
  });

  test("ask_brain_set: citations tagged by brain; Free accounts get plan_required", async () => {
    const advisor = await newBrain(s, "Grid");
    const { brainSet } = await expectJson(await s.api("/api/v1/brain-sets", { method: "POST", json: { name: "Council", primaryBrainId: brainId, advisorBrainIds: [advisor] } }), 201);
    const r = await mcp.call("ask_brain_set", { setId: brainSet.id, question: SOLAR_QUESTION });
    expect(r.isError).toBeFalsy();
    expect(r.structuredContent).toMatchObject({ thin: false, advisorContributed: false });
    expect(r.structuredContent.answer).toContain("[[solar-panels]]");
    expect(r.structuredContent.citations).toContainEqual({
      brain: { id: brainId, name: "Home Energy", kind: "primary" },
      slug: "solar-panels",
      ref: "solar-panels",
      title: "Solar Panels",
      url: `${s.url}/api/v1/brains/${brainId}/pages/solar-panels`,
    });
    const freeKey = await newAccountKey(s.ctx.db, "Free one", "free");
    const free = await connectMcp(s.url, freeKey);
    const refused = await free.call("ask_brain_set", { setId: brainSet.id, question: SOLAR_QUESTION });
    expect(refused.structuredContent.error).toMatchObject({ code: "plan_required" });
    const pro = await connectMcp(s.url, await newAccountKey(s.ctx.db, "Pro one", "pro"));
    const notTheirs = await pro.call("ask_brain_set", { setId: brainSet.id, question: "q" });
    expect(notTheirs.structuredContent.error.code).toBe("not_found");
    await Promise.all([free.close(), pro.close()]);
  });

  test("list_paid_brains is empty when nothing is paid", async () => {
    const r = await mcp.call("list_paid_brains", {});
    expect(r.structuredContent).toEqual({ brains: [] });
  });
});

describe("another account", () => {
  test("a private brain is not_found; a public free brain is readable and askable but not writable", async () => {
    const otherKey = await newAccountKey(s.ctx.db, "Stranger", "pro");
    const other = await connectMcp(s.url, otherKey);
    for (const [tool, args] of [
      ["ask_brain", { brainId, question: SOLAR_QUESTION }],
      ["get_context", { brainId, query: "solar" }],
      ["list_sources", { brainId }],
      ["read_page", { brainId, slug: "solar-panels" }],
      ["add_source", { brainId, kind: "note", title: "x", content: "y" }],
    ] as const) {
      const r = await other.call(tool, args);
      expect(r.isError).toBe(true);
      expect(r.structuredContent.error).toEqual({ code: "not_found", message: "Brain not found" });
    }
    expect((await other.call("list_brains", {})).structuredContent.brains).toEqual([]);

    await expectJson(await s.api(`/api/v1/brains/${brainId}`, { method: "PATCH", json: { visibility: "public" } }), 200);
    try {
      const listed = await other.call("list_brains", {});
      expect(listed.structuredContent.brains).toContainEqual(expect.objectContaining({ id: brainId, owned: false }));
      expect((await other.call("list_brains", { scope: "own" })).structuredContent.brains).toEqual([]);
      const before = await usage(otherKey);
      const answer = await other.call("ask_brain", { brainId, question: SOLAR_QUESTION });
      expect(answer.structuredContent.thin).toBe(false);
      expect((await usage(otherKey)).quota.used).toBe(before.quota.used + 1);
      const write = await other.call("add_source", { brainId, kind: "note", title: "x", content: "y" });
      expect(write.structuredContent.error.code).toBe("forbidden");
    } finally {
      await expectJson(await s.api(`/api/v1/brains/${brainId}`, { method: "PATCH", json: { visibility: "private" } }), 200);
      await other.close();
    }
  });

  test("a Free account spends its bank over MCP and HTTP alike, then gets bank_exhausted", async () => {
    const freeKey = await newAccountKey(s.ctx.db, "Frugal", "free");
    const own = await newBrain(s, "Frugal brain", freeKey);
    const free = await connectMcp(s.url, freeKey);
    const first = await free.call("ask_brain", { brainId: own, question: "anything at all?" });
    expect(first.structuredContent).toMatchObject({ quota: null, bank: 1, thin: true });
    await expectJson(await s.api(`/api/v1/brains/${own}/ask`, { method: "POST", json: { question: "again?" }, key: freeKey }), 200);
    const refused = await free.call("ask_brain", { brainId: own, question: "one more?" });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent.error).toMatchObject({ code: "bank_exhausted", bank: { limit: 2, used: 2, remaining: 0 } });
    // Context is never metered.
    expect((await free.call("get_context", { brainId: own, query: "anything" })).isError).toBeFalsy();
    await free.close();
  });
});

describe("protocol and authentication", () => {
  const init = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } });

  test("no bearer: 401 pointing at the protected resource metadata; a bad one also says invalid_token", async () => {
    const none = await rawMcp(s.url, init);
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toBe(`Bearer realm="brainbox", resource_metadata="${s.url}/.well-known/oauth-protected-resource/mcp", scope="brains:read ask sources:write"`);
    expect((await none.json()).error.code).toBe("unauthorized");
    const bad = await rawMcp(s.url, init, { authorization: "Bearer bb_live_nope" });
    expect(bad.status).toBe(401);
    expect(bad.headers.get("www-authenticate")).toStartWith(`Bearer realm="brainbox", resource_metadata="${s.url}/.well-known/oauth-protected-resource/mcp", scope="brains:read ask sources:write", error="invalid_token"`);
    const meta = await expectJson(await fetch(`${s.url}/.well-known/oauth-protected-resource/mcp`), 200);
    expect(meta).toMatchObject({ resource: `${s.url}/mcp`, authorization_servers: [s.url] });
  });

  test("stateless: GET and DELETE are 405", async () => {
    for (const method of ["GET", "DELETE"]) {
      const res = await fetch(`${s.url}/mcp`, { method, headers: { authorization: `Bearer ${s.key}`, accept: "text/event-stream" } });
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("POST");
    }
  });

  test("malformed JSON and malformed JSON-RPC get the SDK's JSON-RPC errors", async () => {
    const auth = { authorization: `Bearer ${s.key}` };
    const notJson = await rawMcp(s.url, "{bad", auth);
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toEqual({ jsonrpc: "2.0", error: { code: -32700, message: "Parse error: Invalid JSON" }, id: null });
    const notRpc = await rawMcp(s.url, JSON.stringify({ hello: "world" }), auth);
    expect(notRpc.status).toBe(400);
    expect((await notRpc.json()).error).toMatchObject({ code: -32700, message: "Parse error: Invalid JSON-RPC message" });
    const unknownMethod = await rawMcp(s.url, JSON.stringify({ jsonrpc: "2.0", id: 7, method: "brains/eat" }), auth);
    expect(await unknownMethod.json()).toMatchObject({ jsonrpc: "2.0", id: 7, error: { code: -32601 } });
    const huge = await rawMcp(s.url, JSON.stringify({ jsonrpc: "2.0", id: 8, method: "ping", params: { pad: "x".repeat(1_100_000) } }), auth);
    expect(huge.status).toBe(413);
  });

  test("an unknown tool and arguments failing their schema are tool errors the model can read", async () => {
    const unknown = await mcp.call("drop_tables", {});
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toContain("Tool drop_tables not found");
    const blank = await mcp.call("ask_brain", { brainId, question: "   " });
    expect(blank.isError).toBe(true);
    expect(textOf(blank)).toContain("Input validation error");
    const missing = await mcp.call("get_context", { query: "solar" });
    expect(textOf(missing)).toMatch(/Input validation error.*brainId/s);
    const wrongKind = await mcp.call("add_source", { brainId, kind: "video", title: "t", content: "c" });
    expect(textOf(wrongKind)).toContain("Input validation error");
  });

  test("/mcp/x402 is keyless and only serves paid brains: a free brain is not_found there", async () => {
    const anon = await connectMcp(s.url, null, "/mcp/x402");
    const { tools } = await anon.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(["ask_brain", "get_context", "list_paid_brains"]);
    const r = await anon.call("ask_brain", { brainId, question: SOLAR_QUESTION });
    expect(r.structuredContent.error.code).toBe("not_found");
    await anon.close();
  });
});
