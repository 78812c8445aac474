// A value past its length limit is refused as too long, "at most N characters" with the limit, never as
// "must not be blank" (issue 54 item 8), on both surfaces and on every documented JSON route.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectJson, NO_SOURCES, startTestServer, type TestServer } from "../support/server";
import { newBrain } from "../support/sources";
import { documentedRoutes, fill, NON_JSON_ROUTES, validBody, type Route } from "./routes";

let s: TestServer;
let brainId: string;
beforeAll(async () => {
  s = await startTestServer({ ...NO_SOURCES, BRAINBOX_X402_FACILITATOR_URL: "http://127.0.0.1:9" });
  brainId = await newBrain(s, "Lengths");
});
afterAll(() => s.close());

const tooLong = (field: string, limit: number) => ({ code: "invalid_request", field, limit, message: `${field}: must be at most ${limit} characters` });

describe("length limits", () => {
  test("a 4,001-character question or query: at most 4000 characters, on ask and context, v1 and unversioned", async () => {
    const long = "word ".repeat(801).slice(0, 4001);
    for (const base of ["/api/v1/brains", "/api/brains"]) {
      const ask = await expectJson(await s.api(`${base}/${brainId}/ask`, { method: "POST", json: { question: long } }), 422);
      expect(ask.error).toEqual(tooLong("question", 4000));
      const context = await expectJson(await s.api(`${base}/${brainId}/context`, { method: "POST", json: { query: long } }), 422);
      expect(context.error).toEqual(tooLong("query", 4000));
      // Exactly at the limit is no length error.
      const atLimit = await s.api(`${base}/${brainId}/context`, { method: "POST", json: { query: long.slice(0, 4000) } });
      expect(atLimit.status).toBe(200);
    }
  });

  test("a 300-character filename: at most 255 characters, on both upload-url routes", async () => {
    for (const base of ["/api/v1/brains", "/api/brains"]) {
      const body = await expectJson(
        await s.api(`${base}/${brainId}/sources/upload-url`, { method: "POST", json: { filename: `${"f".repeat(296)}.pdf`, contentType: "application/pdf", size: 10 } }),
        422,
      );
      expect(body.error).toEqual(tooLong("filename", 255));
    }
  });

  test("a 100,000-character brain name: at most 120 characters, on create and rename", async () => {
    const name = "n".repeat(100_000);
    expect((await expectJson(await s.api("/api/v1/brains", { method: "POST", json: { name } }), 422)).error).toEqual(tooLong("name", 120));
    expect((await expectJson(await s.api(`/api/v1/brains/${brainId}`, { method: "PATCH", json: { name } }), 422)).error).toEqual(tooLong("name", 120));
    // Blank stays blank.
    expect((await expectJson(await s.api("/api/v1/brains", { method: "POST", json: { name: "   " } }), 422)).error.message).toBe("name: must not be blank");
  });

  test("every documented JSON route: each string field one character past its limit says at most N characters", async () => {
    const routes = (await documentedRoutes(s)).filter((r) => r.bodySchema && !NON_JSON_ROUTES.test(r.path));
    const checked: string[] = [];
    for (const route of routes)
      for (const [field, schema] of Object.entries(route.bodySchema!.properties ?? {})) {
        const limit = schema.maxLength as number | undefined;
        if (schema.type !== "string" || limit === undefined) continue;
        const res = await s.api(fill(route, { brainId, setId: "set_missing", keyId: "key_missing", sourceId: "src_missing", slug: "missing" }), {
          method: route.method,
          json: { ...validBody(route, { brainId, slug: "missing" }), [field]: "x".repeat(limit + 1) },
        });
        const at = `${route.method} ${route.path} ${field}`;
        expect({ at, status: res.status, error: ((await res.json()) as any).error }).toEqual({ at, status: 422, error: tooLong(field, limit) });
        checked.push(at);
      }
    expect(checked).toContain("POST /api/v1/brains name");
    expect(checked).toContain("POST /api/brains/{brainId}/ask question");
    expect(checked.length).toBeGreaterThanOrEqual(10);
  }, 60_000);
});
