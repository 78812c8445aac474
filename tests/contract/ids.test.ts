// Ids in paths, on every documented route (read from /swagger/json): an id that names nothing the caller
// can reach is 404 not_found, whatever its length or characters, with the same body as a missing brain
// (no 422 that tells "malformed" from "absent", no 403 that tells "someone else's" from "absent"); an
// undecodable path segment is 400 invalid_path.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { newAccountKey } from "../support/accounts";
import { expectJson, startTestServer, type TestServer } from "../support/server";
import { newBrain, waitForSource } from "../support/sources";
import { documentedRoutes, fill, validBody, type Route } from "./routes";

let s: TestServer;
let routes: Route[];
const real: Record<string, string> = {};
let foreignBrainId: string;

const MISSING_BRAIN = { error: { code: "not_found", message: "Brain not found" } };
const BAD_IDS = ["brn_0000000000000000", "a".repeat(150), "ü é", "a/b", "\u0000x", "' OR 1=1 --", "x".repeat(2000)];

beforeAll(async () => {
  // A facilitator that is down: the paid routes get as far as the brain lookup.
  s = await startTestServer({ BRAINBOX_X402_FACILITATOR_URL: "http://127.0.0.1:9" });
  routes = await documentedRoutes(s);
  real.brainId = await newBrain(s, "Reachable");
  const note = await expectJson(
    await s.api(`/api/v1/brains/${real.brainId}/sources`, { method: "POST", json: { title: "Basalt", content: "Basalt cools slowly.", mode: "note" } }),
    201,
  );
  real.sourceId = note.source.id;
  await waitForSource(s, real.brainId, note.source.id);
  real.slug = "basalt";
  const other = await newAccountKey(s.ctx.db, "Other", "team");
  foreignBrainId = await newBrain(s, "Private elsewhere", other);
});
afterAll(() => s.close());

async function call(route: Route, path: string) {
  const body = validBody(route, { brainId: real.brainId!, slug: real.slug! });
  const res = await s.api(path, { method: route.method, ...(body ? { json: body } : {}) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, label: `${route.method} ${path.slice(0, 120)}` };
}

describe("ids in paths", () => {
  test("the documented routes are all here (the test reads them from the OpenAPI document)", () => {
    const withBrain = routes.filter((r) => r.params.includes("brainId"));
    expect(withBrain.length).toBeGreaterThanOrEqual(25);
    for (const p of ["sourceId", "slug", "setId", "keyId", "accountId"]) expect(routes.some((r) => r.params.includes(p))).toBe(true);
  });

  test("every route with a brain id: any id the caller cannot reach is 404 with the body of a missing brain", async () => {
    const seen: string[] = [];
    for (const route of routes.filter((r) => r.params.includes("brainId"))) {
      for (const id of [...BAD_IDS, foreignBrainId]) {
        const got = await call(route, fill(route, { ...real, brainId: encodeURIComponent(id) }));
        expect({ at: got.label, status: got.status, body: got.body }).toEqual({ at: got.label, status: 404, body: MISSING_BRAIN });
      }
      seen.push(`${route.method} ${route.path}`);
    }
    // The four routes the issue named, among the rest.
    for (const named of ["POST /api/v1/brains/{brainId}/ask", "POST /api/brains/{brainId}/context", "POST /api/x402/{brainId}/ask", "GET /api/v1/brains/{brainId}"])
      expect(seen).toContain(named);
  });

  test("every other id in a path (source, page, brain set, key, account, grant) that names nothing is 404 not_found", async () => {
    const others = routes.filter((r) => r.params.some((p) => p !== "brainId" && p !== "token"));
    expect(others.length).toBeGreaterThanOrEqual(12);
    for (const route of others) {
      const target = route.params.find((p) => p !== "brainId")!;
      for (const id of BAD_IDS) {
        const got = await call(route, fill(route, { ...real, [target]: encodeURIComponent(id) }));
        expect({ at: got.label, status: got.status, code: got.body?.error?.code }).toEqual({ at: got.label, status: 404, code: "not_found" });
      }
    }
  });

  test("an upload token that is not one is 403 (the signed URL is the credential), never 422", async () => {
    for (const token of ["a".repeat(150), "ü é", "x.y.z"]) {
      const res = await fetch(`${s.url}/api/uploads/${encodeURIComponent(token)}`, { method: "PUT", body: "hello", headers: { "content-type": "text/plain" } });
      expect(res.status).toBe(403);
      expect(((await res.json()) as any).error.code).toBe("forbidden");
    }
  });

  test("an undecodable path segment is 400 invalid_path on every route with a parameter", async () => {
    for (const route of routes.filter((r) => r.params.length > 0)) {
      for (const raw of ["%E0%A4%A", "%FF", "abc%"]) {
        const path = fill(route, { ...real, [route.params[0]!]: raw });
        const sent = validBody(route, { brainId: real.brainId!, slug: real.slug! });
        const res = await s.api(path, { method: route.method, ...(sent ? { json: sent } : {}) });
        const body = (await res.json()) as any;
        expect({ at: `${route.method} ${path}`, status: res.status, code: body.error?.code }).toEqual({ at: `${route.method} ${path}`, status: 400, code: "invalid_path" });
      }
    }
  });

  test("the reachable ids still work (the checks above are not a blanket 404)", async () => {
    await expectJson(await s.api(`/api/v1/brains/${real.brainId}`), 200);
    await expectJson(await s.api(`/api/brains/${real.brainId}/sources/${real.sourceId}`), 200);
    await expectJson(await s.api(`/api/v1/brains/${real.brainId}/pages/${real.slug}`), 200);
    const ask = await expectJson(await s.api(`/api/v1/brains/${real.brainId}/ask`, { method: "POST", json: { question: "How does basalt cool?" } }), 200);
    expect(ask.thin).toBe(false);
  });
});
