// Property-based fuzzing over every route of the OpenAPI spec: generated paths, headers and bodies must
// never produce a 5xx or a crash, and every error must be the JSON shape with a stable code.
import { afterAll, beforeAll, expect, test } from "bun:test";
import fc from "fast-check";
import { expectJson, startTestServer, type TestServer } from "../support/server";

const RUNS = Number(process.env.FUZZ_RUNS ?? 10_000);
let s: TestServer;
let routes: Array<{ method: string; path: string }>;
let brainId: string;

beforeAll(async () => {
  s = await startTestServer({ BRAINBOX_AUTH_FAILURES_PER_MINUTE: "1000000", BRAINBOX_JOBS: "false" });
  const spec = await expectJson(await s.api("/swagger/json", { key: null }), 200);
  routes = Object.entries(spec.paths as Record<string, Record<string, unknown>>).flatMap(([path, ops]) =>
    Object.keys(ops).map((method) => ({ method: method.toUpperCase(), path })),
  );
  brainId = (await expectJson(await s.api("/api/v1/brains", { method: "POST", json: { name: "Fuzz" } }), 201)).brain.id;
});
afterAll(() => s.close());

const FIELD_NAMES = ["name", "question", "query", "title", "content", "body", "type", "kind", "mode", "url", "externalId", "sourceUrl",
  "filename", "contentType", "size", "plan", "emoji", "visibility", "primaryBrainId", "advisorBrainIds", "priceAtomic", "payTo", "maxPages",
  "width", "height", "frames", "slug", "brainId", "text", "jsonrpc", "method", "params", "id"];

const weirdString = fc.oneof(
  fc.string(),
  fc.string({ unit: "grapheme", maxLength: 50 }),
  fc.constantFrom("", " ", "\u0000", "../../etc/passwd", "<script>alert(1)</script>", "' OR 1=1 --", "%00", "💥".repeat(30),
    "http://169.254.169.254/", "file:///etc/passwd", "link", "note", "text", "free", "pro", "team", "public", "private", "a".repeat(5000)),
);
const value = fc.oneof(weirdString, fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.array(weirdString, { maxLength: 6 }),
  fc.dictionary(weirdString, weirdString, { maxKeys: 3 }));
const body = fc.oneof(
  fc.dictionary(fc.constantFrom(...FIELD_NAMES), value, { maxKeys: 6 }).map((o) => JSON.stringify(o)),
  fc.json(),
  fc.string(),
  fc.constantFrom("", "{", "[]", "null", '{"question":', "\u0000\u0001", '{"__proto__":{"admin":true}}'),
);
const segment = fc.oneof(weirdString.map((x) => encodeURIComponent(x).slice(0, 200) || "x"), fc.constant("BRAIN"), fc.constantFrom("brn_0000000000000000", "..", "%2e%2e", "src_x"));
const headerSets = fc.record({
  auth: fc.constantFrom("owner", "none", "garbage", "bearer-empty", "basic", "at"),
  contentType: fc.constantFrom("application/json", "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "", "application/json; charset=latin1"),
  accept: fc.constantFrom("application/json", "text/event-stream", "text/html", "*/*", "image/png"),
  payment: fc.option(fc.oneof(fc.base64String(), weirdString.map((x) => x.replace(/[^\x20-\x7e]/g, "").trim())), { nil: undefined }),
});

function auth(kind: string): string | undefined {
  switch (kind) {
    case "owner": return `Bearer ${s.key}`;
    case "garbage": return "Bearer garbage";
    case "bearer-empty": return "Bearer ";
    case "basic": return "Basic Zm9vOmJhcg==";
    case "at": return "Bearer bb_at_0000";
  }
}

test(`${RUNS} generated requests: never a 5xx, errors always {error:{code,message}}`, async () => {
  const failures: string[] = [];
  const statuses = new Map<number, number>();
  await fc.assert(
    fc.asyncProperty(fc.nat(), fc.array(segment, { minLength: 3, maxLength: 3 }), headerSets, body, fc.constantFrom("GET", "POST", "PUT", "PATCH", "DELETE"),
      async (pick, segments, h, payload, strayMethod) => {
        const route = routes[pick % routes.length]!;
        let i = 0;
        const path = route.path.replace(/\{[^}]+\}/g, (m) => (m === "{brainId}" && pick % 3 === 0 ? brainId : segments[i++ % 3]!.replace("BRAIN", brainId)));
        const method = pick % 11 === 0 ? strayMethod : route.method;
        const headers: Record<string, string> = { accept: h.accept };
        const a = auth(h.auth);
        if (a) headers.authorization = a;
        if (h.contentType) headers["content-type"] = h.contentType;
        if (h.payment !== undefined) headers["x-payment"] = h.payment;
        const res = await fetch(s.url + path, { method, headers, body: method === "GET" ? undefined : payload });
        const text = await res.text();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status >= 500) failures.push(`${method} ${path} → ${res.status} ${text.slice(0, 200)}`);
        else if (res.status >= 400 && !isErrorShape(res, text)) failures.push(`${method} ${path} → ${res.status} bad error body ${text.slice(0, 200)}`);
        return failures.length === 0;
      }),
    { numRuns: RUNS, endOnFailure: true },
  );
  expect(failures).toEqual([]);
  console.log("fuzz statuses:", JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b))));
  // The generator reaches past the guards: successes, auth failures, validation errors and misses all occur.
  for (const status of [200, 401, 404, 422]) expect(statuses.get(status) ?? 0).toBeGreaterThan(0);
  // The server is still up and sane afterwards.
  expect((await s.api("/api/health", { key: null })).status).toBe(200);
}, 600_000);

function isErrorShape(res: Response, text: string): boolean {
  if (res.status === 405 || (res.status === 404 && res.headers.get("content-type")?.includes("text/html"))) return true;
  let parsed: any;
  try {
    parsed = JSON.parse(text);
  } catch {
    return false;
  }
  if (res.status === 402 && parsed.x402Version === 1) return typeof parsed.error === "string"; // the x402 wire shape
  if (parsed.jsonrpc === "2.0") return typeof parsed.error?.code === "number"; // MCP speaks JSON-RPC errors
  if (typeof parsed.error === "string" && typeof parsed.error_description === "string") return true; // OAuth (RFC 6749)
  return typeof parsed.error?.code === "string" && typeof parsed.error?.message === "string";
}
