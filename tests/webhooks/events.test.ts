// The event source (src/queue/events.ts): outbox rows only for a subscribed hook, written with the change or
// not at all, never for another account's brain; and the retry schedule's backoff and jitter.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { runBatch, stmt } from "../../src/db/plain";
import { eventStatements, mayBeSubscribed } from "../../src/queue/events";
import { MAX_RETRY_DELAY_MS, retryDelay } from "../../src/jobs/webhook-deliver";
import { newAccountKey } from "../support/accounts";
import { expectJson, startTestServer, type TestServer } from "../support/server";
import { addText, newBrain, waitForSource } from "../support/sources";
import { waitFor } from "../support/wait";
import { startReceiver, type Receiver } from "./receiver";

let s: TestServer;
let rx: Receiver;
const count = async (table: string) => Number((await s.ctx.database.client.execute(`SELECT count(*) AS n FROM ${table}`)).rows[0]!.n);
const deliveryJobs = async () => Number((await s.ctx.database.client.execute("SELECT count(*) AS n FROM jobs WHERE kind = 'webhook-deliver'")).rows[0]!.n);

beforeAll(async () => {
  rx = startReceiver();
  s = await startTestServer({ BRAINBOX_FETCH_ALLOW_HOSTS: "127.0.0.1" });
});
afterAll(async () => {
  await s.close();
  rx.stop();
});

describe("events", () => {
  test("with no hook, an ingest writes no outbox row and no job, and the statements are none", async () => {
    const brainId = await newBrain(s);
    const { source } = await addText(s, brainId, "Quiet", "Nobody listens to this brain, so nothing is announced anywhere.");
    await waitForSource(s, brainId, source.id);
    expect(await count("webhook_deliveries")).toBe(0);
    expect(await deliveryJobs()).toBe(0);
    expect(await eventStatements(s.ctx.db, [{ type: "source.ready", brainId, data: {} }])).toEqual([]);
  });

  test("a hook for other events or other brains writes nothing for this one", async () => {
    const brainId = await newBrain(s);
    const other = await newBrain(s);
    await expectJson(await s.api("/api/v1/webhooks", { method: "POST", json: { url: rx.url, events: ["source.removed"], brainIds: [other] } }), 201);
    expect(await eventStatements(s.ctx.db, [{ type: "source.ready", brainId, data: {} }])).toEqual([]);
    expect(await eventStatements(s.ctx.db, [{ type: "source.removed", brainId, data: {} }])).toEqual([]);
    expect((await eventStatements(s.ctx.db, [{ type: "source.removed", brainId: other, data: {} }])).length).toBe(2);
  });

  test("a change that rolls back announces nothing; a false guard announces nothing", async () => {
    const brainId = await newBrain(s);
    await expectJson(await s.api("/api/v1/webhooks", { method: "POST", json: { url: rx.url, events: ["page.changed"], brainIds: [brainId] } }), 201);
    const before = await count("webhook_deliveries");
    const statements = await eventStatements(s.ctx.db, [{ type: "page.changed", brainId, data: { slug: "x" } }]);
    expect(statements.length).toBe(2);
    // The change fails after the event's statements: the whole batch, event included, is undone.
    await expect(runBatch(s.ctx.db, [...statements, stmt("INSERT INTO brains (id) VALUES (NULL)")])).rejects.toThrow();
    expect(await count("webhook_deliveries")).toBe(before);
    const guarded = await eventStatements(s.ctx.db, [{ type: "page.changed", brainId, data: {}, guard: stmt("EXISTS (SELECT 1 FROM sources WHERE id = ?)", "src_gone") }]);
    await runBatch(s.ctx.db, guarded);
    expect(await count("webhook_deliveries")).toBe(before);
    await runBatch(s.ctx.db, await eventStatements(s.ctx.db, [{ type: "page.changed", brainId, data: {} }]));
    expect(await count("webhook_deliveries")).toBe(before + 1);
  });

  test("an event emitted twice with the same key (a job re-run after a crash) is one delivery with one job", async () => {
    const brainId = await newBrain(s);
    await expectJson(await s.api("/api/v1/webhooks", { method: "POST", json: { url: rx.url, events: ["source.ready"], brainIds: [brainId] } }), 201);
    const event = { type: "source.ready" as const, brainId, data: { sourceId: "src_x" }, key: "source.ready:src_x:1" };
    const before = [await count("webhook_deliveries"), await deliveryJobs()];
    await runBatch(s.ctx.db, await eventStatements(s.ctx.db, [event]));
    await runBatch(s.ctx.db, await eventStatements(s.ctx.db, [event]));
    expect([await count("webhook_deliveries"), await deliveryJobs()]).toEqual([before[0]! + 1, before[1]! + 1]);
    await runBatch(s.ctx.db, await eventStatements(s.ctx.db, [{ ...event, key: "source.ready:src_x:2" }]));
    expect(await count("webhook_deliveries")).toBe(before[0]! + 2);
  });

  test("a hook for every brain never gets another account's brain's events", async () => {
    const key = await newAccountKey(s.ctx.db, "Stranger");
    const theirs = await newBrain(s, "Their brain", key);
    await expectJson(await s.api("/api/v1/webhooks", { method: "POST", json: { url: rx.url, events: ["source.failed"] } }), 201);
    const before = await count("webhook_deliveries");
    await runBatch(s.ctx.db, await eventStatements(s.ctx.db, [{ type: "source.failed", brainId: theirs, data: {} }]));
    expect(await count("webhook_deliveries")).toBe(before);
  });

  test("a hook written by another replica is seen once the cached view expires", async () => {
    const brainId = await newBrain(s);
    expect(await mayBeSubscribed(s.ctx.db, "connector.run.finished", brainId)).toBe(false);
    const account = (await s.ctx.database.client.execute({ sql: "SELECT account_id FROM brains WHERE id = ?", args: [brainId] })).rows[0]!.account_id as string;
    await s.ctx.database.client.execute({
      sql: "INSERT INTO webhooks (id, account_id, url, events, secret) VALUES ('wh_replica', ?, ?, '[\"connector.run.finished\"]', 'whsec_AAAA')",
      args: [account, rx.url],
    });
    await waitFor(() => mayBeSubscribed(s.ctx.db, "connector.run.finished", brainId));
  });

  test("retry delays grow exponentially, jittered between half and all of the delay, capped at an hour", () => {
    expect(retryDelay(1000, 1, 0)).toBe(500);
    expect(retryDelay(1000, 1, 1)).toBe(1000);
    expect(retryDelay(1000, 4, 0.999999)).toBe(8000);
    for (let i = 0; i < 100; i++) {
      const d = retryDelay(1000, 3);
      expect(d).toBeGreaterThanOrEqual(2000);
      expect(d).toBeLessThanOrEqual(4000);
    }
    expect(retryDelay(5000, 40, 1)).toBe(MAX_RETRY_DELAY_MS);
  });
});
