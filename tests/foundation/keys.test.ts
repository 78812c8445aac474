import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectJson, NO_SOURCES, startTestServer, type TestServer } from "../support/server";
import { openDatabase } from "../../src/db/client";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer(NO_SOURCES);
});
afterAll(() => s.close());

describe("API keys", () => {
  test("create shows the full key once; list never does; the new key works", async () => {
    const created = await expectJson(await s.api("/api/user/api-keys", { method: "POST", json: { name: "ci" } }), 201);
    expect(created.key).toMatch(/^bb_live_[0-9A-Za-z]{43}$/);
    expect(created).toMatchObject({ name: "ci", prefix: "bb_live_" });
    expect(created.id).toStartWith("key_");
    expect(new Date(created.createdAt).getTime()).toBeGreaterThan(0);

    const listed = await expectJson(await s.api("/api/user/api-keys"), 200);
    const text = JSON.stringify(listed);
    expect(text).not.toContain(created.key);
    expect(listed.apiKeys.map((k: any) => k.name)).toContain("ci");
    expect(listed.apiKeys.find((k: any) => k.id === created.id).hint).toBe(`bb_live_…${created.key.slice(-4)}`);

    await expectJson(await s.api("/api/v1/brains", { key: created.key }), 200);
  });

  test("only a hash is stored", async () => {
    const created = await expectJson(await s.api("/api/user/api-keys", { method: "POST", json: { name: "stored" } }), 201);
    const db = openDatabase({ dataDir: s.dataDir });
    const rows = await db.client.execute("SELECT * FROM api_keys");
    db.close();
    const dump = JSON.stringify(rows.rows);
    expect(dump).not.toContain(created.key);
    expect(dump).toContain(new Bun.CryptoHasher("sha256").update(created.key).digest("hex"));
  });

  test("a revoked key answers 401, and revoking twice is harmless", async () => {
    const created = await expectJson(await s.api("/api/user/api-keys", { method: "POST", json: { name: "temp" } }), 201);
    expect((await s.api(`/api/user/api-keys/${created.id}`, { method: "DELETE" })).status).toBe(204);
    const res = await s.api("/api/v1/brains", { key: created.key });
    expect(await expectJson(res, 401)).toMatchObject({ error: { code: "unauthorized" } });
    expect((await s.api(`/api/user/api-keys/${created.id}`, { method: "DELETE" })).status).toBe(204);
    const listed = await expectJson(await s.api("/api/user/api-keys"), 200);
    expect(listed.apiKeys.find((k: any) => k.id === created.id).revokedAt).toBeString();
  });

  test("revoking an unknown key is 404", async () => {
    const body = await expectJson(await s.api("/api/user/api-keys/key_nope", { method: "DELETE" }), 404);
    expect(body.error.code).toBe("not_found");
  });

  test.each([
    ["missing", null, undefined],
    ["garbage", "garbage", undefined],
    ["well-formed but unknown", "bb_live_" + "x".repeat(43), undefined],
    ["not bearer", null, "Basic Zm9vOmJhcg=="],
    ["empty bearer", null, "Bearer "],
  ])("%s credentials → 401 JSON", async (_label, key, authorization) => {
    const headers: Record<string, string> = authorization ? { authorization } : {};
    const res = await s.api("/api/user/api-keys", { key: key as string | null, headers });
    const body = await expectJson(res, 401);
    expect(body.error.code).toBe("unauthorized");
    expect(body.error.message).toBeString();
  });

  test("invalid bodies name the field", async () => {
    const empty = await expectJson(await s.api("/api/user/api-keys", { method: "POST", json: { name: "" } }), 422);
    expect(empty.error).toMatchObject({ code: "invalid_request", field: "name" });
    const missing = await expectJson(await s.api("/api/user/api-keys", { method: "POST", json: {} }), 422);
    expect(missing.error.field).toBe("name");
    const wrongType = await expectJson(await s.api("/api/user/api-keys", { method: "POST", json: { name: 5 } }), 422);
    expect(wrongType.error.field).toBe("name");
  });
});
