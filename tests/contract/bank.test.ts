// `bank` (an integer, the seed says) on v1 and brain-set asks means one thing on every plan: the questions
// the plan still allows. Free: the lifetime bank left; Pro/Team: the quota left this period (an unused
// Free bank means nothing there). Checked over HTTP on every plan and both ask routes that carry it.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectJson, startTestServer, type TestServer } from "../support/server";
import { addText, newBrain, waitForSource } from "../support/sources";

let s: TestServer;
let brainId: string;
let advisorId: string;
beforeAll(async () => {
  s = await startTestServer({ BRAINBOX_FREE_BANK: "5", BRAINBOX_PRO_QUOTA: "7", BRAINBOX_TEAM_QUOTA: "9" });
  brainId = await newBrain(s, "Public facts");
  advisorId = await newBrain(s, "Advisor facts");
  for (const id of [brainId, advisorId]) {
    await s.api(`/api/v1/brains/${id}`, { method: "PATCH", json: { visibility: "public" } });
    const { source } = await addText(s, id, "Tides", "Tides are caused by the gravity of the moon and the sun pulling on the oceans.");
    await waitForSource(s, id, source.id);
  }
});
afterAll(() => s.close());

const account = async (plan: string) =>
  (await expectJson(await s.api("/api/v1/admin/accounts", { method: "POST", json: { name: `${plan} ${Math.random()}`, plan } }), 201)).apiKey.key as string;
const ask = (key: string) => s.api(`/api/v1/brains/${brainId}/ask`, { method: "POST", json: { question: "What causes tides?" }, key });

describe("bank per plan", () => {
  test("Free: bank is the lifetime bank left, quota is null", async () => {
    const key = await account("free");
    for (const left of [4, 3]) {
      const body = await expectJson(await ask(key), 200);
      expect(body).toMatchObject({ bank: left, quota: null });
      expect(Number.isInteger(body.bank)).toBe(true);
    }
  });

  for (const [plan, limit] of [["pro", 7], ["team", 9]] as const)
    test(`${plan}: bank is the quota left this period (quota.remaining), not the unused Free bank`, async () => {
      const key = await account(plan);
      for (let used = 1; used <= 3; used++) {
        const body = await expectJson(await ask(key), 200);
        expect(body.quota).toMatchObject({ limit, used, remaining: limit - used });
        expect(body.bank).toBe(limit - used);
      }
    });

  test("brain-set ask: the same meaning", async () => {
    const key = await account("pro");
    const set = await expectJson(
      await s.api("/api/v1/brain-sets", { method: "POST", json: { name: "Tides set", primaryBrainId: brainId, advisorBrainIds: [advisorId] }, key }),
      201,
    );
    const body = await expectJson(await s.api(`/api/v1/brain-sets/${set.brainSet.id}/ask`, { method: "POST", json: { question: "What causes tides?" }, key }), 200);
    expect(body.quota).toMatchObject({ limit: 7, used: 1, remaining: 6 });
    expect(body.bank).toBe(6);
  });
});
