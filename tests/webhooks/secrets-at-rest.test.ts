// Webhook signing secrets at rest: sealed with the server key connectors use (db/sealed.ts), so the database
// holds no `whsec_…`; deliveries still verify with standardwebhooks' Webhook.verify; a hook stored before
// sealing (a plain `whsec_…` row) still signs.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { openSealedOrPlain, openText, SEALED_PREFIX } from "../../src/db/sealed";
import { expectJson, NO_SOURCES, startTestServer, type TestServer } from "../support/server";
import { waitFor } from "../support/wait";
import { startReceiver, verify, type Receiver } from "./receiver";

let s: TestServer;
let rx: Receiver;

beforeAll(async () => {
  rx = startReceiver();
  s = await startTestServer({ ...NO_SOURCES, BRAINBOX_FETCH_ALLOW_HOSTS: "127.0.0.1", BRAINBOX_WEBHOOK_RETRY_BASE_MS: "50", BRAINBOX_JOB_RETRY_BASE_MS: "50" });
});
afterAll(async () => {
  await s.close();
  rx.stop();
});

const exec = async (sql: string, ...args: any[]) => (await s.ctx.database.client.execute({ sql, args })).rows;

/** Every value of every table (full-text indexes through their shadow tables), to look for a secret anywhere. */
async function everyValue(): Promise<string> {
  const tables = await exec("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND sql NOT LIKE 'CREATE VIRTUAL%'");
  const parts: string[] = [];
  for (const t of tables) parts.push(JSON.stringify(await exec(`SELECT * FROM "${String(t.name).replaceAll('"', '""')}"`)));
  return parts.join("\n");
}

async function testDelivery(hookId: string) {
  const { delivery } = await expectJson(await s.api(`/api/v1/webhooks/${hookId}/test`, { method: "POST" }), 202);
  const id = delivery.id as string;
  await waitFor(async () => rx.received.some((r) => r.headers["webhook-id"] === id));
  return rx.received.find((r) => r.headers["webhook-id"] === id)!;
}

describe("webhook secrets at rest", () => {
  test("after create the database holds no whsec_ string; the stored value opens to the secret shown once", async () => {
    const { webhook, secret } = await expectJson(await s.api("/api/v1/webhooks", { method: "POST", json: { url: rx.url, events: ["source.ready"] } }), 201);
    const second = await expectJson(await s.api("/api/v1/webhooks", { method: "POST", json: { url: rx.url, events: ["source.ready"] } }), 201);
    expect(secret).toMatch(/^whsec_/);
    const all = await everyValue();
    expect(all).not.toContain("whsec_");
    expect(all).not.toContain(secret.slice("whsec_".length));
    const [row] = await exec("SELECT secret FROM webhooks WHERE id = ?", webhook.id);
    const stored = String(row!.secret);
    expect(stored.startsWith(SEALED_PREFIX)).toBe(true);
    expect(await openText(s.ctx.db, stored)).toBe(secret);
    const [other] = await exec("SELECT secret FROM webhooks WHERE id = ?", second.webhook.id);
    expect(String(other!.secret)).not.toBe(stored);
  });

  test("a delivery of a sealed hook verifies with Webhook.verify and the secret shown at creation", async () => {
    const { webhook, secret } = await expectJson(await s.api("/api/v1/webhooks", { method: "POST", json: { url: rx.url, events: ["source.ready"] } }), 201);
    const got = await testDelivery(webhook.id);
    expect(verify(secret, got)).toMatchObject({ type: "webhook.test", data: { webhookId: webhook.id } });
    expect(() => verify("whsec_" + Buffer.from("another secret of 32 bytes......").toString("base64"), got)).toThrow();
  });

  test("a legacy row holding a plain whsec_ secret still signs its deliveries", async () => {
    const { webhook } = await expectJson(await s.api("/api/v1/webhooks", { method: "POST", json: { url: rx.url, events: ["source.ready"] } }), 201);
    const legacy = "whsec_" + Buffer.from("a legacy secret of thirty-two by").toString("base64");
    await exec("UPDATE webhooks SET secret = ? WHERE id = ?", legacy, webhook.id);
    expect(await openSealedOrPlain(s.ctx.db, legacy)).toBe(legacy);
    const got = await testDelivery(webhook.id);
    expect(verify(legacy, got)).toMatchObject({ type: "webhook.test", data: { webhookId: webhook.id } });
  });

  test("a sealed value that was tampered with is refused, not used as a secret", async () => {
    const { webhook } = await expectJson(await s.api("/api/v1/webhooks", { method: "POST", json: { url: rx.url, events: ["source.ready"] } }), 201);
    const [row] = await exec("SELECT secret FROM webhooks WHERE id = ?", webhook.id);
    const stored = String(row!.secret);
    const flipped = stored.slice(0, -2) + (stored.at(-2) === "A" ? "B" : "A") + stored.at(-1);
    await expect(openSealedOrPlain(s.ctx.db, flipped)).rejects.toThrow();
  });
});
