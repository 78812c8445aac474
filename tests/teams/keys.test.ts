// Key policy over real HTTP (issue 56): a read-only key asks, gets context and reads, and every write is
// 403 forbidden (also through MCP, where the writing tools are not offered); a key with an expiry works
// until then and answers 401 after, even while the database is quiet (the key cache does not outlive it).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { connectMcp } from "../mcp/support";
import { expectJson, startTestServer, type TestServer } from "../support/server";
import { addText, newBrain, waitForSource } from "../support/sources";

let s: TestServer;
let brainId: string;
beforeAll(async () => {
  s = await startTestServer();
  brainId = await newBrain(s, "Facts");
  const { source } = await addText(s, brainId, "Tides", "Tides are caused by the gravity of the moon and the sun pulling on the oceans.");
  await waitForSource(s, brainId, source.id);
});
afterAll(() => s.close());

const newKey = async (json: Record<string, unknown>) => expectJson(await s.api("/api/user/api-keys", { method: "POST", json: { name: "k", ...json } }), 201);

describe("read-only keys", () => {
  test("ask, context and reads work; every write is 403 forbidden and changes nothing", async () => {
    const made = await newKey({ readOnly: true });
    expect(made).toMatchObject({ readOnly: true, expiresAt: null });
    const key = made.key as string;
    await expectJson(await s.api(`/api/v1/brains/${brainId}/ask`, { method: "POST", json: { question: "What causes tides?" }, key }), 200);
    await expectJson(await s.api(`/api/brains/${brainId}/context`, { method: "POST", json: { query: "tides" }, key }), 200);
    await expectJson(await s.api(`/api/v1/brains/${brainId}/pages`, { key }), 200);
    await expectJson(await s.api("/api/v1/account", { key }), 200);
    const before = (await expectJson(await s.api("/api/v1/brains"), 200)).brains;
    for (const [method, path, json] of [
      ["POST", "/api/v1/brains", { name: "New" }],
      ["PATCH", `/api/v1/brains/${brainId}`, { name: "Renamed" }],
      ["DELETE", `/api/v1/brains/${brainId}`],
      ["POST", `/api/v1/brains/${brainId}/sources`, { title: "T", content: "Some text." }],
      ["DELETE", `/api/v1/brains/${brainId}/asks`],
      ["POST", "/api/user/api-keys", { name: "escalate" }],
      ["POST", "/api/v1/teams", { name: "T" }],
      ["PUT", `/api/v1/brains/${brainId}/shares/accounts/acc_x`, { role: "viewer" }],
    ] as Array<[string, string, unknown?]>) {
      const body = await expectJson(await s.api(path, { method, key, ...(json ? { json } : {}) }), 403);
      expect(body.error).toMatchObject({ code: "forbidden", readOnly: true });
    }
    expect((await expectJson(await s.api("/api/v1/brains"), 200)).brains).toEqual(before);
    expect((await expectJson(await s.api(`/api/v1/brains/${brainId}/asks`), 200)).asks.length).toBeGreaterThan(0);
  });

  test("MCP with a read-only key: reading tools only", async () => {
    const made = await newKey({ readOnly: true });
    const mcp = await connectMcp(s.url, made.key);
    const names = (await mcp.client.listTools()).tools.map((t) => t.name);
    expect(names).toContain("get_context");
    expect(names).not.toContain("add_source");
    await mcp.close();
  });
});

describe("expiring keys", () => {
  test("works until expiresAt, then 401 without any write in between; listed with its expiry", async () => {
    const expiresAt = new Date(Date.now() + 1500).toISOString();
    const made = await newKey({ expiresAt });
    expect(made.expiresAt).toBe(expiresAt);
    await expectJson(await s.api("/api/v1/brains", { key: made.key }), 200);
    await Bun.sleep(1600);
    const refused = await expectJson(await s.api("/api/v1/brains", { key: made.key }), 401);
    expect(refused.error.message).toContain("expired");
    const listed = (await expectJson(await s.api("/api/user/api-keys"), 200)).apiKeys.find((k: any) => k.id === made.id);
    expect(listed).toMatchObject({ expiresAt, readOnly: false });
  });

  test("an expiry in the past or not a date is refused, and no key is made", async () => {
    const count = async () => (await expectJson(await s.api("/api/user/api-keys"), 200)).apiKeys.length;
    const before = await count();
    const past = await expectJson(await s.api("/api/user/api-keys", { method: "POST", json: { name: "old", expiresAt: "2020-01-01T00:00:00Z" } }), 422);
    expect(past.error).toMatchObject({ code: "invalid_request", field: "expiresAt" });
    await expectJson(await s.api("/api/user/api-keys", { method: "POST", json: { name: "bad", expiresAt: "tomorrow" } }), 422);
    await expectJson(await s.api("/api/user/api-keys", { method: "POST", json: { name: "bad", readOnly: "yes" } }), 422);
    expect(await count()).toBe(before);
  });
});
