// Webhooks as a resource over real HTTP: the secret once, list/get/patch/delete, ownership, and every bad input
// answered 422 naming its field (unknown events, bad URLs, private addresses, brains of someone else).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectJson, NO_SOURCES, startTestServer, type TestServer } from "../support/server";
import { newAccountKey } from "../support/accounts";
import { newBrain } from "../support/sources";
import { startReceiver, type Receiver } from "./receiver";

let s: TestServer;
let rx: Receiver;
let other: string;

beforeAll(async () => {
  rx = startReceiver();
  s = await startTestServer({ ...NO_SOURCES, BRAINBOX_FETCH_ALLOW_HOSTS: `127.0.0.1:${rx.port}` });
  other = await newAccountKey(s.ctx.db);
});
afterAll(async () => {
  await s.close();
  rx.stop();
});

const create = (json: unknown, key?: string) => s.api("/api/v1/webhooks", { method: "POST", json, key });

async function expectInvalid(res: Response, field: string, words: RegExp) {
  const body = await expectJson(res, 422);
  expect(body.error.code).toBe("invalid_request");
  expect(body.error.field).toBe(field);
  expect(body.error.message).toMatch(words);
}

describe("webhooks resource", () => {
  test("create returns the whsec_ secret once; list, get, patch and delete never show it", async () => {
    const brainId = await newBrain(s);
    const created = await expectJson(await create({ url: rx.url, events: ["source.ready", "page.changed"], brainIds: [brainId] }), 201);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
    const id = created.webhook.id;
    expect(created.webhook).toMatchObject({ url: rx.url, events: ["source.ready", "page.changed"], brainIds: [brainId], enabled: true, disabledReason: null });
    const listed = await expectJson(await s.api("/api/v1/webhooks"), 200);
    expect(listed.webhooks.map((h: any) => h.id)).toContain(id);
    const got = await expectJson(await s.api(`/api/v1/webhooks/${id}`), 200);
    for (const text of [JSON.stringify(listed), JSON.stringify(got)]) expect(text).not.toContain(created.secret);

    const patched = await expectJson(await s.api(`/api/v1/webhooks/${id}`, { method: "PATCH", json: { enabled: false, events: ["source.removed"], brainIds: null } }), 200);
    expect(patched.webhook).toMatchObject({ enabled: false, events: ["source.removed"], brainIds: null });
    expect(JSON.stringify(patched)).not.toContain(created.secret);

    expect((await s.api(`/api/v1/webhooks/${id}`, { method: "DELETE" })).status).toBe(204);
    expect((await s.api(`/api/v1/webhooks/${id}`)).status).toBe(404);
    const audit = await s.ctx.database.client.execute({ sql: "SELECT action FROM audit_events WHERE target_id = ? ORDER BY id", args: [id] });
    expect(audit.rows.map((r) => r.action)).toEqual(["webhook.created", "webhook.changed", "webhook.deleted"]);
  });

  test("another account's hook is a 404 on every route; it sees only its own", async () => {
    const { webhook } = await expectJson(await create({ url: rx.url, events: ["source.ready"] }), 201);
    for (const [method, path, json] of [
      ["GET", "", undefined],
      ["PATCH", "", { enabled: false }],
      ["DELETE", "", undefined],
      ["POST", "/test", undefined],
      ["GET", "/deliveries", undefined],
    ] as const) {
      const res = await s.api(`/api/v1/webhooks/${webhook.id}${path}`, { method, json, key: other });
      expect((await expectJson(res, 404)).error.code).toBe("not_found");
    }
    expect((await expectJson(await s.api("/api/v1/webhooks", { key: other }), 200)).webhooks).toEqual([]);
    expect((await s.api(`/api/v1/webhooks/${webhook.id}`)).status).toBe(200); // untouched
    expect((await s.api("/api/v1/webhooks", { key: null })).status).toBe(401);
  });

  test("unknown events, an empty list and a patch to one are refused, naming the field and the known events", async () => {
    await expectInvalid(await create({ url: rx.url, events: ["source.ready", "source.exploded"] }), "events", /source\.exploded.*known: source\.ready/);
    await expectInvalid(await create({ url: rx.url, events: ["webhook.test"] }), "events", /unknown event/);
    expect((await expectJson(await create({ url: rx.url, events: [] }), 422)).error.field).toBe("events");
    const { webhook } = await expectJson(await create({ url: rx.url, events: ["page.changed"] }), 201);
    await expectInvalid(await s.api(`/api/v1/webhooks/${webhook.id}`, { method: "PATCH", json: { events: ["page.deleted"] } }), "events", /page\.deleted/);
  });

  test("bad URLs are refused: not a URL, not http(s), credentials in it", async () => {
    await expectInvalid(await create({ url: "not a url", events: ["source.ready"] }), "url", /not a valid URL/);
    await expectInvalid(await create({ url: "ftp://example.com/x", events: ["source.ready"] }), "url", /http or https/);
    await expectInvalid(await create({ url: `http://user:pw@127.0.0.1:${rx.port}/hook`, events: ["source.ready"] }), "url", /user name or password/);
    expect((await expectJson(await create({ events: ["source.ready"] }), 422)).error.field).toBe("url");
  });

  test("a private address without the allow-list is refused at create and at patch (SSRF rules)", async () => {
    for (const url of ["http://10.1.2.3/hook", "http://169.254.169.254/latest", `http://127.0.0.1:${rx.port + 1}/hook`, "http://[::1]/hook", "http://localhost/hook"])
      await expectInvalid(await create({ url, events: ["source.ready"] }), "url", /BRAINBOX_FETCH_ALLOW_HOSTS/);
    const { webhook } = await expectJson(await create({ url: rx.url, events: ["source.ready"] }), 201);
    await expectInvalid(await s.api(`/api/v1/webhooks/${webhook.id}`, { method: "PATCH", json: { url: "http://192.168.0.10/" } }), "url", /BRAINBOX_FETCH_ALLOW_HOSTS/);
    expect((await expectJson(await s.api(`/api/v1/webhooks/${webhook.id}`), 200)).webhook.url).toBe(rx.url);
  });

  test("brainIds must be the caller's own brains", async () => {
    const theirs = await newBrain(s, "Theirs", other);
    await expectInvalid(await create({ url: rx.url, events: ["source.ready"], brainIds: [theirs] }), "brainIds", /no brain/);
    await expectInvalid(await create({ url: rx.url, events: ["source.ready"], brainIds: ["brn_nothing"] }), "brainIds", /no brain/);
    await expectInvalid(await create({ url: rx.url, events: ["source.ready"], brainIds: [] }), "brainIds", /at least one/);
  });

  test("a patch with nothing in it, or a wrong type, is 422", async () => {
    const { webhook } = await expectJson(await create({ url: rx.url, events: ["source.ready"] }), 201);
    expect((await s.api(`/api/v1/webhooks/${webhook.id}`, { method: "PATCH", json: {} })).status).toBe(422);
    expect((await expectJson(await s.api(`/api/v1/webhooks/${webhook.id}`, { method: "PATCH", json: { enabled: "yes" } }), 422)).error.field).toBe("enabled");
  });
});
