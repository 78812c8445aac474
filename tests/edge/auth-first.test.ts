// 401 before anything else (issue 17): on every account-mode route the credential is checked before the
// body is parsed or validated, so someone without a valid key learns nothing about a route's schema.
// The sweep walks the app's own route table, so a route added later is checked too.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { buildApp } from "../../src/server";
import { expectJson, startTestServer, type TestServer } from "../support/server";

let s: TestServer;
let brainId: string;
beforeAll(async () => {
  s = await startTestServer({ BRAINBOX_AUTH_FAILURES_PER_MINUTE: "100000", BRAINBOX_JOBS: "false", BRAINBOX_MAX_BODY_BYTES: "2048" });
  brainId = (await expectJson(await s.api("/api/v1/brains", { method: "POST", json: { name: "Auth order" } }), 201)).brain.id;
});
afterAll(() => s.close());

/** Routes that are not account mode, each for a reason: open, keyless pay-per-call, or their own protocol. */
const NOT_ACCOUNT_MODE = [
  /^\/swagger/, // API docs
  /^\/api\/health$/,
  /^\/metrics$/, // its own optional token
  /^\/api\/uploads\//, // the signed upload URL is the credential
  /^\/api\/x402\//, // keyless: paid per call, the body is the quote
  /^\/mcp\/x402$/,
  /^\/\.well-known\//,
  /^\/oauth\//, // OAuth protocol endpoints (client authentication, RFC 6749)
  /^\/$/, // the admin page and its assets (the page asks for a key)
  /^\/assets\//,
  /^\/favicon/,
  /^DELETE \/api\/v1\/web-session$/, // signing out needs no credential: it ends the cookie's session
  /^DELETE \/api\/v1\/session$/, // the same for a person's session
  /^POST \/api\/v1\/session$/, // signing in: the email and password are the credential
  /^\/api\/v1\/password-links\//, // setup and reset links: the token is the credential
  /^POST \/api\/v1\/invitations\/(check|sign-up)$/, // an invitation's link: its token is the credential
  /^GET \/api\/v1\/session\/providers$/, // what the sign-in screen offers, before anyone signs in
  /^GET \/auth\/:provider\/(start|callback)$/, // single sign-on: the provider's answer is the credential
  /^\/setup$/, // the admin page, opened by a setup or reset link
];

const BAD_KEY = "Bearer bb_live_0000000000000000000000000000000000000000000";

function accountRoutes() {
  const seen = new Set<string>();
  const routes = buildApp(s.ctx)
    .routes.filter((r) => !NOT_ACCOUNT_MODE.some((p) => p.test(r.path) || p.test(`${r.method} ${r.path}`)))
    .map((r) => ({ method: r.method === "ALL" ? "POST" : r.method, path: r.path }))
    .filter((r) => !seen.has(`${r.method} ${r.path}`) && seen.add(`${r.method} ${r.path}`));
  return routes;
}

const concrete = (path: string) => path.replace(":brainId", brainId).replace(/:(\w+)/g, "x_$1");
const hasBody = (method: string) => !["GET", "HEAD", "DELETE"].includes(method);

describe("401 before anything else", () => {
  test("the sweep covers every account-mode route family on both surfaces", () => {
    const paths = accountRoutes().map((r) => `${r.method} ${r.path}`);
    for (const family of [
      "GET /api/v1/brains",
      "GET /api/brains",
      "POST /api/v1/brains/:brainId/sources",
      "POST /api/brains/:brainId/sources",
      "POST /api/v1/brains/:brainId/sources/upload-url",
      "POST /api/brains/:brainId/sources/upload-url",
      "POST /api/v1/brains/:brainId/ask",
      "POST /api/brains/:brainId/ask",
      "POST /api/v1/brains/:brainId/context",
      "POST /api/brains/:brainId/context",
      "GET /api/v1/brains/:brainId/pages",
      "GET /api/brains/:brainId/pages/:slug",
      "POST /api/user/api-keys",
      "POST /api/v1/brain-sets",
      "POST /api/v1/brain-sets/:setId/ask",
      "GET /api/v1/account",
      "PATCH /api/v1/admin/accounts/:accountId",
      "PUT /api/v1/brains/:brainId/paid",
      "GET /api/user/oauth-grants",
    ])
      expect(paths).toContain(family);
    expect(paths.length).toBeGreaterThan(40);
  });

  test("no key + malformed JSON → 401 on every account-mode route (not 400 invalid_json)", async () => {
    const wrong: string[] = [];
    for (const r of [...accountRoutes(), { method: "POST", path: "/mcp" }]) {
      const res = await fetch(s.url + concrete(r.path), {
        method: r.method,
        headers: { "content-type": "application/json" },
        body: hasBody(r.method) ? "{not json" : undefined,
      });
      const body = (await res.json()) as { error?: { code?: string } };
      if (res.status !== 401 || body.error?.code !== "unauthorized") wrong.push(`${r.method} ${r.path} → ${res.status} ${JSON.stringify(body)}`);
    }
    expect(wrong).toEqual([]);
  });

  test('bad key + {"question":5} → 401 on every account-mode route (not 422)', async () => {
    const wrong: string[] = [];
    for (const r of [...accountRoutes(), { method: "POST", path: "/mcp" }]) {
      const res = await fetch(s.url + concrete(r.path), {
        method: r.method,
        headers: { "content-type": "application/json", authorization: BAD_KEY },
        body: hasBody(r.method) ? JSON.stringify({ question: 5 }) : undefined,
      });
      const body = (await res.json()) as { error?: { code?: string } };
      if (res.status !== 401 || body.error?.code !== "unauthorized") wrong.push(`${r.method} ${r.path} → ${res.status} ${JSON.stringify(body)}`);
    }
    expect(wrong).toEqual([]);
  });

  test("ids that name nothing, over-long ids and odd params: still 401 without a valid key", async () => {
    for (const path of [`/api/v1/brains/${"x".repeat(150)}/ask`, `/api/brains/${"x".repeat(150)}/context`, "/api/v1/brains/brn_doesnotexist00/sources"]) {
      const res = await fetch(s.url + path, { method: "POST", headers: { "content-type": "application/json" }, body: "{" });
      expect(res.status).toBe(401);
    }
  });

  test("a body over the size limit is 401 without a valid key, 413 with one", async () => {
    const big = JSON.stringify({ question: "x".repeat(4096) });
    const anonymous = await fetch(`${s.url}/api/v1/brains/${brainId}/ask`, { method: "POST", headers: { "content-type": "application/json" }, body: big });
    expect(anonymous.status).toBe(401);
    const owner = await s.api(`/api/v1/brains/${brainId}/ask`, { method: "POST", body: big, headers: { "content-type": "application/json" } });
    expect((await expectJson(owner, 413)).error.code).toBe("payload_too_large");
  });

  test("a valid key keeps today's answers to bad bodies: 400 invalid_json, 422 naming the field", async () => {
    for (const path of [
      `/api/v1/brains/${brainId}/ask`,
      `/api/brains/${brainId}/ask`,
      `/api/v1/brains/${brainId}/context`,
      `/api/brains/${brainId}/context`,
      `/api/v1/brains/${brainId}/sources`,
      `/api/brains/${brainId}/sources`,
      "/api/v1/brains",
      "/api/v1/brain-sets",
      "/api/user/api-keys",
    ]) {
      const res = await s.api(path, { method: "POST", body: "{not json", headers: { "content-type": "application/json" } });
      expect((await expectJson(res, 400)).error.code).toBe("invalid_json");
    }
    for (const surface of ["/api/v1", "/api"]) {
      const ask = await expectJson(await s.api(`${surface}/brains/${brainId}/ask`, { method: "POST", json: { question: 5 } }), 422);
      expect(ask.error).toMatchObject({ code: "invalid_request", field: "question" });
      const context = await expectJson(await s.api(`${surface}/brains/${brainId}/context`, { method: "POST", json: { query: 5 } }), 422);
      expect(context.error).toMatchObject({ code: "invalid_request", field: "query" });
    }
  });

  test("keyless routes keep validating their bodies (x402 pay-per-call: 400 for malformed JSON)", async () => {
    const res = await fetch(`${s.url}/api/x402/${brainId}/ask`, { method: "POST", headers: { "content-type": "application/json" }, body: "{not json" });
    expect((await expectJson(res, 400)).error.code).toBe("invalid_json");
  });
});
