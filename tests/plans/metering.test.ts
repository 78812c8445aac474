// Metering over HTTP: the Free bank (402), Pro/Team quota (429), the unversioned daily quota (429 with a
// quota object and Retry-After), exactness under 50 parallel asks, and context never counting.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectJson, startTestServer, type TestServer } from "../support/server";
import { addText, newBrain, waitForSource } from "../support/sources";

let s: TestServer;
let brainId: string;
beforeAll(async () => {
  s = await startTestServer({ BRAINBOX_FREE_BANK: "2", BRAINBOX_PRO_QUOTA: "10", BRAINBOX_DAILY_QUOTA: "3" });
  brainId = await newBrain(s, "Shared facts");
  await s.api(`/api/v1/brains/${brainId}`, { method: "PATCH", json: { visibility: "public" } });
  const { source } = await addText(s, brainId, "Tides", "Tides are caused by the gravity of the moon and the sun pulling on the oceans.");
  await waitForSource(s, brainId, source.id);
});
afterAll(() => s.close());

const account = async (plan: string) =>
  (await expectJson(await s.api("/api/v1/admin/accounts", { method: "POST", json: { name: `${plan} ${Math.random()}`, plan } }), 201)).apiKey.key as string;
const askV1 = (key: string, question = "What causes tides?") => s.api(`/api/v1/brains/${brainId}/ask`, { method: "POST", json: { question }, key });
const askPlain = (key: string) => s.api(`/api/brains/${brainId}/ask`, { method: "POST", json: { question: "What causes tides?" }, key });

describe("metering", () => {
  test("Free: each v1 ask spends the bank; an empty bank is 402 with the bank state", async () => {
    const key = await account("free");
    const first = await expectJson(await askV1(key), 200);
    expect(first).toMatchObject({ quota: null, bank: 1 });
    expect((await expectJson(await askV1(key), 200)).bank).toBe(0);
    const refused = await expectJson(await askV1(key), 402);
    expect(refused.error.code).toBe("bank_exhausted");
    expect(refused.error.bank).toMatchObject({ limit: 2, used: 2, remaining: 0, period: "lifetime" });
  });

  test("Pro: quota object in each answer; over the quota is 429", async () => {
    const key = await account("pro");
    for (let i = 1; i <= 10; i++) {
      const body = await expectJson(await askV1(key), 200);
      expect(body.quota).toMatchObject({ limit: 10, used: i, remaining: 10 - i, period: "month" });
      // On Pro/Team `bank` is the questions the plan still allows this period (the unused Free bank means nothing here).
      expect(body.bank).toBe(10 - i);
    }
    const over = await askV1(key);
    const body = await expectJson(over, 429);
    expect(body.error.code).toBe("quota_exceeded");
    expect(body.quota).toMatchObject({ limit: 10, used: 10, remaining: 0 });
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  test("unversioned ask: daily quota, 429 with {error, quota} and Retry-After", async () => {
    const key = await account("pro");
    for (let i = 0; i < 3; i++) await expectJson(await askPlain(key), 200);
    const over = await askPlain(key);
    const body = await expectJson(over, 429);
    expect(body.error.code).toBe("quota_exceeded");
    expect(body.quota).toMatchObject({ limit: 3, used: 3, remaining: 0, period: "day" });
    expect(new Date(body.quota.resetsAt).getTime()).toBeGreaterThan(Date.now());
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(Number(over.headers.get("retry-after"))).toBeLessThanOrEqual(86_400);
  });

  test("context never counts", async () => {
    const key = await account("free");
    for (let i = 0; i < 5; i++) {
      await expectJson(await s.api(`/api/brains/${brainId}/context`, { method: "POST", json: { query: "tides" }, key }), 200);
      await expectJson(await s.api(`/api/v1/brains/${brainId}/context`, { method: "POST", json: { query: "tides" }, key }), 200);
    }
    const me = await expectJson(await s.api("/api/v1/account", { key }), 200);
    expect(me.usage.bank.used).toBe(0);
    expect(me.usage.daily.used).toBe(0);
  });

  test("a thin answer still counts", async () => {
    const key = await account("free");
    const body = await expectJson(await askV1(key, "Who won the chess olympiad in 1936?"), 200);
    expect(body.thin).toBe(true);
    expect(body.bank).toBe(1);
  });

  test("exact under concurrency: 50 parallel v1 asks against 10 remaining → exactly 10 succeed", async () => {
    const key = await account("pro");
    const results = await Promise.all(Array.from({ length: 50 }, () => askV1(key)));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((x) => x === 200)).toHaveLength(10);
    expect(statuses.filter((x) => x === 429)).toHaveLength(40);
    const me = await expectJson(await s.api("/api/v1/account", { key }), 200);
    expect(me.usage.quota).toMatchObject({ used: 10, remaining: 0 });
  });
});
