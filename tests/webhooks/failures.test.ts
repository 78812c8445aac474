// Receivers that misbehave: 500 until they recover, never answering, redirecting, answering 50 MB; a day of
// failures turning the hook off (the window made small here); a target the SSRF rules refuse at delivery.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { loadConfig } from "../../src/config";
import { createLogger } from "../../src/lib/log";
import { startServer } from "../../src/runtime";
import { expectJson, NO_SOURCES, startTestServer, tempDir, type TestServer } from "../support/server";
import { waitFor } from "../support/wait";
import { startReceiver, verify, type Receiver } from "./receiver";

let s: TestServer;
let rx: Receiver;
const TIMEOUT_MS = 400;

beforeAll(async () => {
  rx = startReceiver();
  s = await startTestServer({ ...NO_SOURCES, BRAINBOX_FETCH_ALLOW_HOSTS: "127.0.0.1", BRAINBOX_WEBHOOK_RETRY_BASE_MS: "40", BRAINBOX_WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS) });
});
afterAll(async () => {
  await s.close();
  rx.stop();
});

/** A hook on its own path of the receiver, sent a test event; the requests for that path. */
async function hookAt(path: string, server: { api: TestServer["api"] } = s) {
  const { webhook, secret } = await expectJson(await server.api("/api/v1/webhooks", { method: "POST", json: { url: `http://127.0.0.1:${rx.port}${path}`, events: ["source.ready"] } }), 201);
  const { delivery } = await expectJson(await server.api(`/api/v1/webhooks/${webhook.id}/test`, { method: "POST" }), 202);
  return { webhook, secret, delivery, hits: () => rx.received.filter((r) => r.path === path) };
}
const deliveries = async (id: string, server: { api: TestServer["api"] } = s) => (await expectJson(await server.api(`/api/v1/webhooks/${id}/deliveries`), 200)).deliveries as any[];
const perPath = new Map<string, (req: Request, n: number) => Response | Promise<Response>>();

beforeAll(() => {
  rx.answer = (req, n) => (perPath.get(new URL(req.url).pathname) ?? (() => new Response(null, { status: 204 })))(req, n);
});

describe("webhook targets that misbehave", () => {
  test("a target answering 500 is retried with the same webhook-id until it recovers", async () => {
    let calls = 0;
    perPath.set("/flaky", () => (++calls <= 2 ? new Response("database is down", { status: 500 }) : new Response("ok")));
    const { webhook, secret, delivery, hits } = await hookAt("/flaky");
    await waitFor(async () => (await deliveries(webhook.id))[0]?.status === "delivered");
    const [d] = await deliveries(webhook.id);
    expect(d.attempts).toBe(3);
    expect(d.log.map((a: any) => a.statusCode)).toEqual([500, 500, 200]);
    expect(d.log[0].error).toBe("The receiver answered HTTP 500: database is down");
    expect(new Set(hits().map((h) => h.headers["webhook-id"]))).toEqual(new Set([delivery.id]));
    for (const h of hits()) expect(verify(secret, h).type).toBe("webhook.test");
    expect((await expectJson(await s.api(`/api/v1/webhooks/${webhook.id}`), 200)).webhook).toMatchObject({ enabled: true, failingSince: null });
  });

  test("a target that never answers times out, and the attempt is retried", async () => {
    let calls = 0;
    perPath.set("/hang", () => (++calls === 1 ? new Promise<Response>(() => {}) : new Response(null, { status: 202 })));
    const { webhook } = await hookAt("/hang");
    await waitFor(async () => (await deliveries(webhook.id))[0]?.status === "delivered");
    const [d] = await deliveries(webhook.id);
    expect(d.log.map((a: any) => [a.statusCode, a.error])).toEqual([
      [null, `The receiver did not answer within ${TIMEOUT_MS} ms`],
      [202, null],
    ]);
  });

  test("a redirect is not followed: the attempt fails, naming where it pointed", async () => {
    perPath.set("/moved", () => new Response(null, { status: 308, headers: { location: `http://127.0.0.1:${rx.port}/new-home` } }));
    const { webhook, hits } = await hookAt("/moved");
    await waitFor(async () => ((await deliveries(webhook.id))[0]?.attempts ?? 0) >= 2);
    const [d] = await deliveries(webhook.id);
    expect(d.status).toBe("pending");
    expect(d.statusCode).toBe(308);
    expect(d.error).toContain(`redirect to http://127.0.0.1:${rx.port}/new-home; redirects are not followed`);
    expect(d.nextAttemptAt).not.toBeNull();
    expect(rx.received.filter((r) => r.path === "/new-home")).toEqual([]);
    expect(hits().length).toBeGreaterThanOrEqual(2);
    await s.api(`/api/v1/webhooks/${webhook.id}`, { method: "DELETE" });
  });

  test("a 50 MB answer is not read beyond a bound: the status decides", async () => {
    let pulled = 0;
    const chunk = new Uint8Array(1024 * 1024).fill(120);
    perPath.set("/huge", () =>
      new Response(new ReadableStream({ pull(c) { if (++pulled > 50) c.close(); else c.enqueue(chunk); } }), { status: 200 }),
    );
    const { webhook } = await hookAt("/huge");
    await waitFor(async () => (await deliveries(webhook.id))[0]?.status === "delivered");
    expect(pulled).toBeLessThan(50); // the receiver was never asked for the rest
  });

  test("a run of failures as long as the window turns the hook off; the owner sees why; turning it on clears it", async () => {
    const small = await startTestServer({ ...NO_SOURCES, BRAINBOX_FETCH_ALLOW_HOSTS: "127.0.0.1", BRAINBOX_WEBHOOK_RETRY_BASE_MS: "30", BRAINBOX_WEBHOOK_DISABLE_AFTER_MS: "400" });
    try {
      perPath.set("/down", () => new Response("maintenance", { status: 503 }));
      const { webhook } = await hookAt("/down", small);
      await waitFor(async () => (await expectJson(await small.api(`/api/v1/webhooks/${webhook.id}`), 200)).webhook.enabled === false);
      const hook = (await expectJson(await small.api(`/api/v1/webhooks/${webhook.id}`), 200)).webhook;
      expect(hook.disabledReason).toMatch(/^Turned off by the server: every delivery failed for 400 ms\. Last error: /);
      expect(hook.disabledReason).toContain("The receiver answered HTTP 503: maintenance");
      await waitFor(async () => (await deliveries(webhook.id, small))[0]?.status === "failed");
      const [d] = await deliveries(webhook.id, small);
      expect(d.error).toMatch(/^Gave up after \d+ attempts: The receiver answered HTTP 503/);
      expect(d.log.length).toBe(d.attempts);
      const on = (await expectJson(await small.api(`/api/v1/webhooks/${webhook.id}`, { method: "PATCH", json: { enabled: true } }), 200)).webhook;
      expect(on).toMatchObject({ enabled: true, disabledReason: null, failingSince: null });
    } finally {
      await small.close();
    }
  });

  test("a target the SSRF rules refuse at delivery (the allow-list was removed) is not sent to", async () => {
    const dataDir = tempDir();
    const allowed = await startTestServer({ ...NO_SOURCES, BRAINBOX_FETCH_ALLOW_HOSTS: "127.0.0.1", BRAINBOX_JOBS: "false" }, dataDir);
    perPath.set("/private", () => new Response(null, { status: 204 }));
    const { webhook, hits } = await hookAt("/private", allowed);
    await allowed.stop(); // the data dir stays
    const config = loadConfig({ BRAINBOX_PORT: "0", BRAINBOX_DATA_DIR: dataDir, BRAINBOX_LOG_LEVEL: "error", BRAINBOX_WEBHOOK_RETRY_BASE_MS: "40" });
    const strict = await startServer(config, createLogger("error"));
    try {
      const api: TestServer["api"] = (path, init = {}) => fetch(strict.url + path, { ...init, headers: { authorization: `Bearer ${allowed.key}` } });
      await waitFor(async () => (await deliveries(webhook.id, { api }))[0]?.status === "failed");
      const [d] = await deliveries(webhook.id, { api });
      expect(d.error).toMatch(/^Not sent: refusing to fetch .* BRAINBOX_FETCH_ALLOW_HOSTS/);
      expect(d.attempts).toBe(1); // a refusal is not retried
      expect(hits()).toEqual([]);
    } finally {
      await strict.stop();
    }
  });
});
