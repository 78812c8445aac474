// The read-only MCP tool: a brain's connectors with their last run, never their secrets.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../support/server";
import { connectMcp, textOf } from "../mcp/support";
import { createConnector, newBrain, syncAndWait } from "./helpers";
import { startSite, type Site } from "./site";

let s: TestServer;
let site: Site;
beforeAll(async () => {
  site = startSite();
  s = await startTestServer({ BRAINBOX_FETCH_ALLOW_HOSTS: "127.0.0.1" });
});
afterAll(async () => {
  await s.close();
  site.stop();
});

test("list_connectors shows each connector and its last run, without secrets", async () => {
  site.pages.set("/m/1", { title: "Moorings", body: "Moorings are checked weekly." });
  const brainId = await newBrain(s);
  const c = await createConnector(s, brainId, { kind: "website", name: "Harbour site", config: { startUrls: [`${site.url}/m/1`], maxDepth: 0, headers: { Authorization: "Bearer mcp-secret" } } });
  await createConnector(s, brainId, { kind: "feed", name: "Harbour news", config: { url: `${site.url}/feed.xml` }, paused: true, schedule: "every 1d" });
  await syncAndWait(s, brainId, c.id);
  const mcp = await connectMcp(s.url, s.key);
  const result = await mcp.call("list_connectors", { brainId });
  expect(result.isError).toBeFalsy();
  const [site1, feed] = result.structuredContent.connectors;
  expect(site1).toMatchObject({ id: c.id, kind: "website", name: "Harbour site", lastRun: { status: "succeeded", counts: { added: 1 } } });
  expect(feed).toMatchObject({ kind: "feed", paused: true, lastRun: null });
  expect(textOf(result)).toContain("Harbour site (website");
  expect(textOf(result)).toContain("1 added");
  expect(JSON.stringify(result)).not.toContain("mcp-secret");
  const missing = await mcp.call("list_connectors", { brainId: "brn_nope" });
  expect(missing.isError).toBe(true);
});
