// search and fetch in the shapes ChatGPT's data connectors (deep research, company knowledge) parse: one
// text content item holding JSON; search over every brain the caller can read, fetch by `<brainId>/<slug>`.
// Driven by the SDK client, once with an API key and once with an OAuth access token (how ChatGPT connects).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { newAccountKey } from "../support/accounts";
import { expectJson, startTestServer, type TestServer } from "../support/server";
import { newBrain, waitForSource } from "../support/sources";
import { approve, MemoryOAuthProvider } from "../oauth/support";
import { connectMcp, textOf, type McpSession } from "./support";

let s: TestServer;
let mcp: McpSession;
let otherKey: string;
const brains: Record<string, string> = {};

async function addText(brainId: string, title: string, content: string, key = s.key) {
  const res = await s.api(`/api/v1/brains/${brainId}/sources`, { method: "POST", json: { title, content }, key });
  const { source } = await expectJson(res, 201);
  expect((await waitForSource({ api: (p, i) => s.api(p, { ...i, key }) }, brainId, source.id)).status).toBe("ready");
}

beforeAll(async () => {
  s = await startTestServer({ BRAINBOX_AUTH_FAILURES_PER_MINUTE: "1000" });
  otherKey = await newAccountKey(s.ctx.db, "Neighbour");
  brains.garden = await newBrain(s, "Garden");
  brains.kitchen = await newBrain(s, "Kitchen");
  brains.shared = await newBrain(s, "Neighbour's public notes", otherKey);
  brains.secret = await newBrain(s, "Neighbour's diary", otherKey);
  await expectJson(await s.api(`/api/v1/brains/${brains.shared}`, { method: "PATCH", json: { visibility: "public" }, key: otherKey }), 200);
  await addText(brains.garden, "Tomato Growing", "Tomatoes need six hours of sun a day. Water tomatoes deeply twice a week.");
  await addText(brains.kitchen, "Tomato Sauce", "A tomato sauce simmers for forty minutes with garlic and basil.");
  await addText(brains.shared, "Tomato Varieties", "San Marzano and Roma are plum tomato varieties for sauce.", otherKey);
  await addText(brains.secret, "Tomato Secret", "The secret tomato fertilizer is seaweed.", otherKey);
  mcp = await connectMcp(s.url, s.key);
});
afterAll(async () => {
  await mcp?.close();
  await s?.close();
});

/** The one text item of a result, parsed (what ChatGPT does). */
function jsonOf(result: { content: unknown[] }): any {
  expect(result.content).toHaveLength(1);
  const item = result.content[0] as { type: string; text: string };
  expect(item.type).toBe("text");
  return JSON.parse(item.text);
}

describe("search", () => {
  test("listed with one required string argument each", async () => {
    const { tools } = await mcp.client.listTools();
    const search = tools.find((t) => t.name === "search")!;
    const fetchTool = tools.find((t) => t.name === "fetch")!;
    expect(search.inputSchema.required).toEqual(["query"]);
    expect(Object.keys(search.inputSchema.properties!)).toEqual(["query"]);
    expect(fetchTool.inputSchema.required).toEqual(["id"]);
    expect(Object.keys(fetchTool.inputSchema.properties!)).toEqual(["id"]);
    expect(search.annotations?.readOnlyHint).toBe(true);
    expect(fetchTool.annotations?.readOnlyHint).toBe(true);
  });

  test("results across every brain the caller can read, as {results:[{id,title,url}]} in one text item", async () => {
    const r = await mcp.call("search", { query: "tomato" });
    expect(r.isError).toBeFalsy();
    const { results } = jsonOf(r);
    expect(r.structuredContent).toEqual({ results });
    for (const result of results) expect(Object.keys(result).sort()).toEqual(["id", "title", "url"]);
    const titles = results.map((x: { title: string }) => x.title).sort();
    expect(titles).toEqual(["Tomato Growing", "Tomato Sauce", "Tomato Varieties"]); // never the private diary
    const growing = results.find((x: { title: string }) => x.title === "Tomato Growing");
    expect(growing).toEqual({ id: `${brains.garden}/tomato-growing`, title: "Tomato Growing", url: `${s.url}/api/v1/brains/${brains.garden}/pages/tomato-growing` });
    // The most relevant first.
    expect(jsonOf(await mcp.call("search", { query: "how long does tomato sauce simmer with garlic" })).results[0].title).toBe("Tomato Sauce");
  });

  test("nothing matching, a newcomer without brains, and a blank query", async () => {
    expect(jsonOf(await mcp.call("search", { query: "zebra quantum airspeed" })).results).toEqual([]);
    const empty = await connectMcp(s.url, await newAccountKey(s.ctx.db, "Newcomer"));
    // A newcomer sees only public brains of others.
    expect(jsonOf(await empty.call("search", { query: "tomato" })).results.map((x: { title: string }) => x.title)).toEqual(["Tomato Varieties"]);
    await empty.close();
    const blank = await mcp.call("search", { query: "   " });
    expect(blank.isError).toBe(true);
    expect(textOf(blank)).toContain("Input validation error");
  });
});

describe("fetch", () => {
  test("a search result's id → {id,title,text,url,metadata}; its url is the page over HTTP", async () => {
    const id = `${brains.garden}/tomato-growing`;
    const r = await mcp.call("fetch", { id });
    expect(r.isError).toBeFalsy();
    const doc = jsonOf(r);
    expect(r.structuredContent).toEqual(doc);
    expect(Object.keys(doc).sort()).toEqual(["id", "metadata", "text", "title", "url"]);
    expect(doc).toMatchObject({ id, title: "Tomato Growing", url: `${s.url}/api/v1/brains/${brains.garden}/pages/tomato-growing` });
    expect(doc.text).toContain("six hours of sun");
    expect(doc.metadata).toMatchObject({ brainId: brains.garden, brainName: "Garden", slug: "tomato-growing", sourceId: expect.stringMatching(/^src_/) });
    const page = await expectJson(await fetch(doc.url, { headers: { authorization: `Bearer ${s.key}` } }), 200);
    expect(page.page).toMatchObject({ title: "Tomato Growing", markdown: doc.text });
    // Another account's public brain is readable too.
    expect(jsonOf(await mcp.call("fetch", { id: `${brains.shared}/tomato-varieties` })).text).toContain("San Marzano");
  });

  test("ids it cannot serve are not_found tool errors, a private brain of another account included", async () => {
    for (const id of [`${brains.secret}/tomato-secret`, `${brains.garden}/no-such-page`, "brn_doesnotexist/tomato-growing", "no-slash", `${brains.garden}/`, `/tomato-growing`, `${brains.garden}/a/b`]) {
      const r = await mcp.call("fetch", { id });
      expect({ id, isError: r.isError, code: r.structuredContent?.error?.code }).toEqual({ id, isError: true, code: "not_found" });
      expect(textOf(r)).not.toContain("seaweed");
    }
  });
});

describe("as ChatGPT connects: OAuth, then search and fetch", () => {
  test("the SDK's OAuth flow, then search and fetch with the access token", async () => {
    const provider = new MemoryOAuthProvider("http://127.0.0.1:1/connector/oauth/callback", { client_name: "ChatGPT-like connector" });
    const url = new URL(`${s.url}/mcp`);
    const transport = new StreamableHTTPClientTransport(url, { authProvider: provider });
    await expect(new Client({ name: "openai-mcp", version: "1" }).connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
    const back = await approve(s.url, provider.authorizationUrl!, s.key);
    await transport.finishAuth(back.searchParams.get("code")!);
    const client = new Client({ name: "openai-mcp", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));
    const found = jsonOf((await client.callTool({ name: "search", arguments: { query: "tomato sun" } })) as any);
    expect(found.results[0].title).toBe("Tomato Growing");
    const doc = jsonOf((await client.callTool({ name: "fetch", arguments: { id: found.results[0].id } })) as any);
    expect(doc.text).toContain("Water tomatoes deeply");
    await client.close();
  });
});
