// Events delivered over real HTTP to a loopback receiver, signed in the Standard Webhooks format and verified
// with standardwebhooks' Webhook.verify; filtered by the hook's events and brains; logged per hook.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectJson, startTestServer, type TestServer } from "../support/server";
import { addText, newBrain, waitForSource } from "../support/sources";
import { waitFor } from "../support/wait";
import { startReceiver, verify, type Receiver } from "./receiver";

let s: TestServer;
let rx: Receiver;

beforeAll(async () => {
  rx = startReceiver();
  rx.answer = (req) => (new URL(req.url).pathname === "/missing" ? new Response("gone", { status: 404 }) : new Response(null, { status: 204 }));
  s = await startTestServer({ BRAINBOX_FETCH_ALLOW_HOSTS: "127.0.0.1", BRAINBOX_WEBHOOK_RETRY_BASE_MS: "50", BRAINBOX_JOB_RETRY_BASE_MS: "50" });
});
afterAll(async () => {
  await s.close();
  rx.stop();
});

async function hook(events: string[], brainIds?: string[], url = rx.url) {
  return expectJson(await s.api("/api/v1/webhooks", { method: "POST", json: { url, events, brainIds } }), 201) as Promise<{ webhook: any; secret: string }>;
}
const deliveries = async (id: string) => (await expectJson(await s.api(`/api/v1/webhooks/${id}/deliveries`), 200)).deliveries as any[];
const receivedFor = (brainId: string, type: string) => rx.received.filter((r) => r.path === "/hook" && JSON.parse(r.body).type === type && JSON.parse(r.body).data.brainId === brainId);

describe("webhook delivery", () => {
  test("source.ready and page.changed arrive signed; Webhook.verify accepts them and refuses a tampered body", async () => {
    const brainId = await newBrain(s);
    const { webhook, secret } = await hook(["source.ready", "page.changed"], [brainId]);
    const { source } = await addText(s, brainId, "Tides", "The tides of the Severn estuary are among the highest in the world, rising fifteen metres.");
    await waitForSource(s, brainId, source.id);
    await waitFor(async () => receivedFor(brainId, "source.ready").length === 1 && receivedFor(brainId, "page.changed").length >= 1);

    const got = receivedFor(brainId, "source.ready")[0]!;
    const event = verify(secret, got);
    expect(event).toMatchObject({ type: "source.ready", data: { brainId, sourceId: source.id, title: "Tides", pageCount: expect.any(Number) } });
    expect(new Date(event.timestamp).toString()).not.toBe("Invalid Date");
    expect(got.headers["webhook-id"]).toMatch(/^msg_/);
    expect(got.headers["content-type"]).toBe("application/json");
    expect(() => verify(secret, { ...got, body: got.body.replace("Tides", "Tid3s") })).toThrow();
    expect(() => verify("whsec_" + Buffer.from("another secret of 32 bytes......").toString("base64"), got)).toThrow();

    const page = verify(secret, receivedFor(brainId, "page.changed")[0]!);
    expect(page.data).toMatchObject({ brainId, sourceId: source.id, reason: "ingest", slug: expect.any(String) });

    await waitFor(async () => (await deliveries(webhook.id)).every((d) => d.status === "delivered"));
    const log = await deliveries(webhook.id);
    expect(log.map((d) => d.event).sort()).toEqual(["page.changed", "source.ready"].concat(Array(log.length - 2).fill("page.changed")).sort());
    const ready = log.find((d) => d.event === "source.ready")!;
    expect(ready).toMatchObject({ id: got.headers["webhook-id"], status: "delivered", attempts: 1, statusCode: 204, error: null, brainId });
    expect(ready.log).toEqual([expect.objectContaining({ attempt: 1, statusCode: 204, error: null })]);
  });

  test("filters: another brain's events and unsubscribed types are not sent", async () => {
    const mine = await newBrain(s);
    const elsewhere = await newBrain(s);
    const { webhook } = await hook(["source.removed"], [mine]);
    const { source: a } = await addText(s, mine, "Kept", "Lighthouses guided ships along the rocky northern coast for centuries.");
    const { source: b } = await addText(s, elsewhere, "Elsewhere", "A quiet village market sold cheese and apples every Saturday morning.");
    await waitForSource(s, mine, a.id);
    await waitForSource(s, elsewhere, b.id);
    expect((await s.api(`/api/v1/brains/${elsewhere}/sources/${b.id}`, { method: "DELETE" })).status).toBeLessThan(300);
    expect((await s.api(`/api/v1/brains/${mine}/sources/${a.id}`, { method: "DELETE" })).status).toBeLessThan(300);
    await waitFor(async () => receivedFor(mine, "source.removed").length === 1);
    expect(JSON.parse(receivedFor(mine, "source.removed")[0]!.body).data).toMatchObject({ sourceId: a.id, title: "Kept" });
    const log = await deliveries(webhook.id);
    expect(log.map((d) => d.event)).toEqual(["source.removed"]); // no source.ready, nothing of the other brain
    expect(receivedFor(elsewhere, "source.removed")).toEqual([]);
    expect(receivedFor(mine, "source.ready")).toEqual([]);
  });

  test("a hook with no brainIds takes every brain of its account, and a disabled hook gets nothing", async () => {
    const brainId = await newBrain(s);
    const { webhook: all } = await hook(["source.ready"]);
    const { webhook: off } = await hook(["source.ready"]);
    await s.api(`/api/v1/webhooks/${off.id}`, { method: "PATCH", json: { enabled: false } });
    const { source } = await addText(s, brainId, "Every", "Glaciers carved the valleys that rivers later filled with gravel and silt.");
    await waitForSource(s, brainId, source.id);
    await waitFor(async () => (await deliveries(all.id)).some((d) => d.status === "delivered" && d.brainId === brainId));
    expect(await deliveries(off.id)).toEqual([]);
    await s.api(`/api/v1/webhooks/${all.id}`, { method: "DELETE" });
  });

  test("page.changed on an owner edit and on a revert, with the revision", async () => {
    const brainId = await newBrain(s);
    const { source } = await addText(s, brainId, "Bridges", "The old stone bridge crossed the river at the narrowest point of the gorge.");
    await waitForSource(s, brainId, source.id);
    const { webhook, secret } = await hook(["page.changed"], [brainId]);
    const { pages } = await expectJson(await s.api(`/api/v1/brains/${brainId}/pages?kind=source`), 200);
    const slug = pages[0].slug;
    const before = (await expectJson(await s.api(`/api/v1/brains/${brainId}/pages/${slug}`), 200)).page;
    await expectJson(await s.api(`/api/v1/brains/${brainId}/pages/${slug}`, { method: "PUT", json: { markdown: "An edited page about the bridge." } }), 200);
    await expectJson(await s.api(`/api/v1/brains/${brainId}/pages/${slug}`, { method: "PUT", json: { markdown: before.markdown } }), 200);
    await waitFor(async () => receivedFor(brainId, "page.changed").length === 2);
    const events = receivedFor(brainId, "page.changed").map((r) => verify(secret, r));
    expect(events.map((e) => e.data.revision)).toEqual([before.revision + 1, before.revision + 2]);
    expect(events.every((e) => e.data.slug === slug && e.data.reason === "edit")).toBe(true);
    // Saving the same text again changes nothing, so it announces nothing.
    await expectJson(await s.api(`/api/v1/brains/${brainId}/pages/${slug}`, { method: "PUT", json: { markdown: before.markdown } }), 200);
    await waitFor(async () => (await deliveries(webhook.id)).every((d) => d.status === "delivered"));
    expect((await deliveries(webhook.id)).length).toBe(2);
  });

  test("source.failed when a source fails for good, with its error", async () => {
    const brainId = await newBrain(s);
    await hook(["source.failed"], [brainId]);
    const { source } = await expectJson(await s.api(`/api/v1/brains/${brainId}/sources`, { method: "POST", json: { kind: "link", url: `http://127.0.0.1:${rx.port}/missing` } }), 201);
    expect((await waitForSource(s, brainId, source.id)).status).toBe("failed");
    await waitFor(async () => receivedFor(brainId, "source.failed").length === 1);
    expect(JSON.parse(receivedFor(brainId, "source.failed")[0]!.body).data).toMatchObject({ sourceId: source.id, type: "link", error: expect.stringContaining("404") });
  });

  test("send a test event: delivered with webhook.test, shown in the log", async () => {
    const { webhook, secret } = await hook(["source.ready"]);
    const res = await s.api(`/api/v1/webhooks/${webhook.id}/test`, { method: "POST" });
    const { delivery } = await expectJson(res, 202);
    expect(delivery).toMatchObject({ event: "webhook.test", status: "pending", attempts: 0 });
    await waitFor(async () => rx.received.some((r) => r.headers["webhook-id"] === delivery.id));
    const event = verify(secret, rx.received.find((r) => r.headers["webhook-id"] === delivery.id)!);
    expect(event).toMatchObject({ type: "webhook.test", data: { webhookId: webhook.id } });
    await waitFor(async () => (await deliveries(webhook.id))[0]?.status === "delivered");
  });
});
