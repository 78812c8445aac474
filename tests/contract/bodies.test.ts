// JSON bodies on every documented route (read from /swagger/json): numbers and booleans are never coerced
// from strings (422 naming the field), and a body sent with another content type is 415, not a misleading
// field error. Routes whose bodies are not JSON (OAuth forms, the upload's bytes) keep their own rules.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectJson, startTestServer, type TestServer } from "../support/server";
import { newBrain } from "../support/sources";
import { documentedRoutes, fill, NON_JSON_ROUTES, scalarFields, validBody, type Route } from "./routes";

let s: TestServer;
let routes: Route[];
const real: Record<string, string> = {};

beforeAll(async () => {
  s = await startTestServer({ BRAINBOX_X402_FACILITATOR_URL: "http://127.0.0.1:9" });
  routes = await documentedRoutes(s);
  real.brainId = await newBrain(s, "Bodies");
  const set = await expectJson(
    await s.api("/api/v1/brain-sets", { method: "POST", json: { name: "Set", primaryBrainId: real.brainId, advisorBrainIds: [await newBrain(s, "Advisor")] } }),
    201,
  );
  real.setId = set.brainSet.id;
  real.sourceId = "src_missing";
  real.slug = "missing";
});
afterAll(() => s.close());

const jsonRoutes = () => routes.filter((r) => r.bodySchema && !NON_JSON_ROUTES.test(r.path));
const pathOf = (r: Route) => fill(r, { ...real, keyId: "key_missing", accountId: "acc_missing", grantId: "grant_missing" });
const bodyOf = (r: Route) => validBody(r, { brainId: real.brainId!, slug: real.slug! }) ?? {};

describe("no silent type coercion", () => {
  test("every number or boolean in a JSON body, sent as a string (or a fraction for integers), is 422 naming the field", async () => {
    const checked: string[] = [];
    for (const route of jsonRoutes()) {
      for (const field of scalarFields(route.bodySchema)) {
        const wrong = [String(field.value), ...(field.type === "integer" ? [Number(field.value) + 0.5] : []), ...(field.type === "boolean" ? ["true", 1] : [])];
        for (const value of wrong) {
          const res = await s.api(pathOf(route), { method: route.method, json: { ...bodyOf(route), [field.name]: value } });
          const body = (await res.json()) as any;
          const at = `${route.method} ${route.path} ${field.name}=${JSON.stringify(value)}`;
          expect({ at, status: res.status, code: body.error?.code, field: body.error?.field }).toEqual({ at, status: 422, code: "invalid_request", field: field.name });
        }
        checked.push(`${route.path} ${field.name}`);
      }
    }
    // The discovery found the numbers the API takes (upload size, the app actions' sizes and counts).
    for (const expected of ["/api/v1/brains/{brainId}/sources/upload-url size", "/api/brains/{brainId}/sources/upload-url size", "/api/x402/geo/scan maxPages", "/api/x402/social/image width", "/api/x402/clips/render frames"])
      expect(checked).toContain(expected);
  });

  test("the issue's case: upload-url with size \"5\" is 422 on size, with 5 it is 201", async () => {
    const url = `/api/brains/${real.brainId}/sources/upload-url`;
    const bad = await expectJson(await s.api(url, { method: "POST", json: { filename: "a.txt", contentType: "text/plain", size: "5" } }), 422);
    expect(bad.error).toMatchObject({ code: "invalid_request", field: "size" });
    await expectJson(await s.api(url, { method: "POST", json: { filename: "a.txt", contentType: "text/plain", size: 5 } }), 201);
  });

  test("strings are not made from numbers either, and a choice of values names them", async () => {
    const named = await expectJson(await s.api("/api/v1/brains", { method: "POST", json: { name: 5 } }), 422);
    expect(named.error).toEqual({ code: "invalid_request", field: "name", message: "name: must be a string" });
    const choice = await expectJson(await s.api("/api/v1/brains", { method: "POST", json: { name: "V", visibility: true } }), 422);
    expect(choice.error).toEqual({ code: "invalid_request", field: "visibility", message: 'visibility: must be one of "private", "public"' });
    const blank = await expectJson(await s.api(`/api/v1/brains/${real.brainId}/ask`, { method: "POST", json: { question: "   " } }), 422);
    expect(blank.error).toEqual({ code: "invalid_request", field: "question", message: "question: must not be blank" });
    // A value of another type, or none, is not called blank.
    const ask = (json: object) => s.api(`/api/v1/brains/${real.brainId}/ask`, { method: "POST", json });
    for (const question of [5, null, ["a"], { text: "a" }, true])
      expect((await expectJson(await ask({ question }), 422)).error).toEqual({ code: "invalid_request", field: "question", message: "question: must be a string" });
    expect((await expectJson(await ask({}), 422)).error).toEqual({ code: "invalid_request", field: "question", message: "question: is required" });
  });

  test("query numbers: a fraction, zero or text for ?limit is 422 naming limit (a fraction used to reach SQL: 500)", async () => {
    for (const limit of ["1.5", "0", "abc", "-1", "1e2", "201"]) {
      const body = await expectJson(await s.api(`/api/v1/brains/${real.brainId}/pages?limit=${limit}`), 422);
      expect(body.error).toMatchObject({ code: "invalid_request", field: "limit" });
    }
    await expectJson(await s.api(`/api/v1/brains/${real.brainId}/pages?limit=200`), 200);
  });
});

describe("content types", () => {
  test("every JSON route: a body sent as text/plain, a form, multipart or with no content type is 415 unsupported_media_type", async () => {
    const checked = jsonRoutes();
    expect(checked.length).toBeGreaterThanOrEqual(20);
    for (const route of checked) {
      const json = JSON.stringify(bodyOf(route));
      const form = new FormData();
      form.set("name", "x");
      const variants: [string, RequestInit][] = [
        ["text/plain", { body: json, headers: { "content-type": "text/plain" } }],
        ["form", { body: new URLSearchParams({ name: "x", question: "q" }) }],
        ["multipart", { body: form }],
        ["none", { body: new Blob([json]) }],
      ];
      for (const [label, init] of variants) {
        const res = await s.api(pathOf(route), { method: route.method, ...init });
        const body = (await res.json()) as any;
        const at = `${route.method} ${route.path} (${label})`;
        expect({ at, status: res.status, code: body.error?.code }).toEqual({ at, status: 415, code: "unsupported_media_type" });
        expect(body.error.message).toContain("application/json");
      }
    }
  });

  test("the OpenAPI document advertises application/json only for these bodies (the rest is 415)", async () => {
    const spec = (await (await fetch(`${s.url}/swagger/json`)).json()) as any;
    for (const route of jsonRoutes())
      expect({ at: `${route.method} ${route.path}`, types: Object.keys(spec.paths[route.path][route.method.toLowerCase()].requestBody.content) }).toEqual({
        at: `${route.method} ${route.path}`,
        types: ["application/json"],
      });
  });

  test("application/json with parameters and +json types are JSON; an empty body with no type is an empty object", async () => {
    await expectJson(await s.api("/api/v1/brains", { method: "POST", body: JSON.stringify({ name: "Charset" }), headers: { "content-type": "application/json; charset=utf-8" } }), 201);
    await expectJson(await s.api("/api/v1/brains", { method: "POST", body: JSON.stringify({ name: "Suffix" }), headers: { "content-type": "application/vnd.api+json" } }), 201);
    const empty = await expectJson(await s.api("/api/v1/brains", { method: "POST" }), 422);
    expect(empty.error).toMatchObject({ code: "invalid_request", field: "name" });
    // A route without a body takes none: reprocess with nothing sent goes through to the lookup.
    await expectJson(await s.api(`/api/v1/brains/${real.brainId}/sources/src_missing/reprocess`, { method: "POST" }), 404);
  });

  test("routes with their own body rules keep them: OAuth takes forms, the upload takes the declared type", async () => {
    const token = await fetch(`${s.url}/oauth/token`, { method: "POST", body: new URLSearchParams({ grant_type: "authorization_code" }) });
    expect(token.status).not.toBe(415);
    const ticket = await expectJson(
      await s.api(`/api/v1/brains/${real.brainId}/sources/upload-url`, { method: "POST", json: { filename: "n.txt", contentType: "text/plain", size: 5 } }),
      201,
    );
    const put = await fetch(ticket.uploadUrl, { method: "PUT", body: "hello", headers: { "content-type": "text/plain" } });
    expect(put.status).toBe(200);
  });
});
