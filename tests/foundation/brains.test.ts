import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { newAccountKey } from "../support/accounts";
import { expectJson, NO_SOURCES, startTestServer, type TestServer } from "../support/server";

let s: TestServer;
let otherKey: string;
beforeAll(async () => {
  s = await startTestServer(NO_SOURCES);
  otherKey = await newAccountKey(s.ctx.db);
});
afterAll(() => s.close());

const create = (json: unknown, key?: string) => s.api("/api/v1/brains", { method: "POST", json, key });

describe("brains", () => {
  test("create, read, list on both surfaces, rename, delete", async () => {
    const { brain } = await expectJson(await create({ name: "Product Docs", emoji: "📚" }), 201);
    expect(brain).toMatchObject({ name: "Product Docs", slug: "product-docs", emoji: "📚", visibility: "private", sourceCount: 0, role: "owner" });
    expect(brain.id).toStartWith("brn_");

    const v1 = await expectJson(await s.api("/api/v1/brains"), 200);
    expect(v1.brains).toContainEqual({ id: brain.id, name: "Product Docs", slug: "product-docs", emoji: "📚", visibility: "private", sourceCount: 0, role: "owner" });
    const plain = await expectJson(await s.api("/api/brains"), 200);
    const item = plain.brains.find((b: any) => b.id === brain.id);
    expect(item).toEqual({ id: brain.id, name: "Product Docs", slug: "product-docs", visibility: "private", sourceCount: 0, role: "owner" });
    expect("emoji" in item).toBe(false);

    const one = await expectJson(await s.api(`/api/v1/brains/${brain.id}`), 200);
    expect(one.brain.owned).toBe(true);

    const renamed = await expectJson(await s.api(`/api/v1/brains/${brain.id}`, { method: "PATCH", json: { name: "Handbook" } }), 200);
    expect(renamed.brain).toMatchObject({ name: "Handbook", slug: "handbook" });

    expect((await s.api(`/api/v1/brains/${brain.id}`, { method: "DELETE" })).status).toBe(204);
    await expectJson(await s.api(`/api/v1/brains/${brain.id}`), 404);
  });

  test("duplicate names conflict (case-insensitive); near names get distinct slugs", async () => {
    await expectJson(await create({ name: "Research" }), 201);
    const dup = await expectJson(await create({ name: "research" }), 409);
    expect(dup.error).toMatchObject({ code: "conflict", field: "name" });
    const near = await expectJson(await create({ name: "Research!" }), 201);
    expect(near.brain.slug).toBe("research-2");
    // Another owner may use the same name and slug.
    const other = await expectJson(await create({ name: "Research" }, otherKey), 201);
    expect(other.brain.slug).toBe("research");
  });

  test("concurrent creates of one name make exactly one brain", async () => {
    const results = await Promise.all(Array.from({ length: 8 }, () => create({ name: "Race" })));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((x) => x === 201)).toHaveLength(1);
    expect(statuses.filter((x) => x === 409)).toHaveLength(7);
  });

  test("another owner's private brain is 404 everywhere, never 403", async () => {
    const { brain } = await expectJson(await create({ name: "Secret" }), 201);
    for (const [method, json] of [["GET"], ["PATCH", { name: "x" }], ["DELETE"]] as const) {
      const body = await expectJson(await s.api(`/api/v1/brains/${brain.id}`, { method, json, key: otherKey }), 404);
      expect(body.error.code).toBe("not_found");
    }
    const theirs = await expectJson(await s.api("/api/brains", { key: otherKey }), 200);
    expect(theirs.brains.map((b: any) => b.id)).not.toContain(brain.id);
  });

  test("a public brain is listed for others on the unversioned list, read-only", async () => {
    const { brain } = await expectJson(await create({ name: "Open", visibility: "public" }), 201);
    const theirs = await expectJson(await s.api("/api/brains", { key: otherKey }), 200);
    expect(theirs.brains.map((b: any) => b.id)).toContain(brain.id);
    const v1 = await expectJson(await s.api("/api/v1/brains", { key: otherKey }), 200);
    expect(v1.brains.map((b: any) => b.id)).not.toContain(brain.id);
    const patch = await expectJson(await s.api(`/api/v1/brains/${brain.id}`, { method: "PATCH", json: { name: "Mine" }, key: otherKey }), 403);
    expect(patch.error.code).toBe("forbidden");
  });

  test("unknown brain id is 404", async () => {
    const body = await expectJson(await s.api("/api/v1/brains/brn_doesnotexist"), 404);
    expect(body.error.code).toBe("not_found");
  });

  test.each([
    [{}, "name"],
    [{ name: "" }, "name"],
    [{ name: "   " }, "name"],
    [{ name: "x".repeat(121) }, "name"],
    [{ name: "ok", visibility: "secret" }, "visibility"],
    [{ name: "ok", emoji: "" }, "emoji"],
  ])("invalid create body %j → 422 naming %s", async (json, field) => {
    const body = await expectJson(await create(json), 422);
    expect(body.error).toMatchObject({ code: "invalid_request", field });
  });

  test("an empty PATCH is refused", async () => {
    const { brain } = await expectJson(await create({ name: "Patchy" }), 201);
    const body = await expectJson(await s.api(`/api/v1/brains/${brain.id}`, { method: "PATCH", json: {} }), 422);
    expect(body.error.code).toBe("invalid_request");
  });
});

describe("HTTP errors", () => {
  test("malformed JSON → 400 invalid_json", async () => {
    const res = await s.api("/api/v1/brains", { method: "POST", body: "{nope", headers: { "content-type": "application/json" } });
    expect((await expectJson(res, 400)).error.code).toBe("invalid_json");
  });

  test("oversized body → 413 payload_too_large, with or without Content-Length", async () => {
    const big = JSON.stringify({ name: "x".repeat(2 * 1024 * 1024) });
    const res = await s.api("/api/v1/brains", { method: "POST", body: big, headers: { "content-type": "application/json" } });
    expect((await expectJson(res, 413)).error.code).toBe("payload_too_large");
    const stream = new ReadableStream({
      start(c) {
        c.enqueue(new TextEncoder().encode(big));
        c.close();
      },
    });
    const chunked = await s.api("/api/v1/brains", { method: "POST", body: stream, headers: { "content-type": "application/json" } });
    expect((await expectJson(chunked, 413)).error.code).toBe("payload_too_large");
  });

  test("unknown route → 404 JSON", async () => {
    const body = await expectJson(await s.api("/api/v1/nothing-here"), 404);
    expect(body.error.code).toBe("route_not_found");
  });

  test("health needs no key and names the active components", async () => {
    const body = await expectJson(await s.api("/api/health", { key: null }), 200);
    expect(body).toMatchObject({ status: "ok", database: { ok: true, kind: "embedded" } });
    expect(body.embedder.retrieval).toBe("lexical");
    expect(body.generator.active).toBe("extractive");
    expect(body.version).toBeString();
  });

  test("OpenAPI spec and a docs page with local assets only", async () => {
    const spec = await expectJson(await s.api("/swagger/json", { key: null }), 200);
    expect(Object.keys(spec.paths)).toEqual(expect.arrayContaining(["/api/v1/brains", "/api/user/api-keys"]));
    const page = await (await s.api("/swagger", { key: null })).text();
    expect(page).not.toMatch(/https?:\/\//);
    for (const asset of ["/swagger/assets/swagger-ui-bundle.js", "/swagger/assets/swagger-ui.css"]) {
      const res = await s.api(asset, { key: null });
      expect(res.status).toBe(200);
      expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    }
  });
});
