// MCP tools over the wiki graph: page_links (links and backlinks) and wiki_graph (the graph around a page).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { newAccountKey } from "../support/accounts";
import { connectMcp, type McpSession } from "../mcp/support";
import { startTestServer, type TestServer } from "../support/server";
import { addText, newBrain, waitForSource } from "../support/sources";

let s: TestServer;
let mcp: McpSession;
let brainId: string;
beforeAll(async () => {
  s = await startTestServer();
  mcp = await connectMcp(s.url, s.key);
  brainId = await newBrain(s, "Harbours");
  for (const [title, content] of [
    ["Pier building", "Engineer Lotte Varn built the north pier of Gullhaven. Lotte Varn used granite from the hills."],
    ["Varn family", "Lotte Varn was born in Gullhaven in 1850. Her brother sailed to Norhaven."],
  ]) await waitForSource(s, brainId, (await addText(s, brainId, title!, content!)).source.id);
});
afterAll(async () => {
  await mcp.close();
  await s.close();
});

test("page_links: a concept's links and backlinks; unknown page and other accounts are not_found", async () => {
  const r = await mcp.call("page_links", { brainId, slug: "lotte-varn" });
  expect(r.isError).toBeFalsy();
  expect(r.structuredContent).toMatchObject({ slug: "lotte-varn", kind: "concept" });
  expect(r.structuredContent.backlinks).toEqual(expect.arrayContaining(["pier-building", "varn-family"]));
  expect(r.structuredContent.links).toEqual(expect.arrayContaining(["pier-building", "varn-family"]));
  const missing = await mcp.call("page_links", { brainId, slug: "nope" });
  expect(missing.structuredContent.error.code).toBe("not_found");
  const other = await connectMcp(s.url, await newAccountKey(s.ctx.db));
  expect((await other.call("wiki_graph", { brainId })).structuredContent.error.code).toBe("not_found");
  await other.close();
});

test("wiki_graph: around a page, and the whole brain's best-connected pages", async () => {
  const around = await mcp.call("wiki_graph", { brainId, around: "pier-building", depth: 2 });
  const slugs = around.structuredContent.nodes.map((n: any) => n.slug);
  expect(slugs).toEqual(expect.arrayContaining(["pier-building", "lotte-varn", "varn-family"]));
  expect(around.structuredContent.edges).toContainEqual({ from: "pier-building", to: "lotte-varn" });
  const all = await mcp.call("wiki_graph", { brainId, limit: 2 });
  expect(all.structuredContent.nodes).toHaveLength(2);
  expect(all.structuredContent.truncated).toBe(true);
  const bad = await mcp.call("wiki_graph", { brainId, depth: 9 });
  expect(bad.isError).toBe(true);
});
