// A Team plan's question quota is the team's, counted across its members (issue 56): two members of a
// Team-plan team spend one quota; a person in no such team keeps their own plan's counter.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectJson, startTestServer, type TestServer } from "../support/server";
import { addText, newBrain, waitForSource } from "../support/sources";
import { person, share, type Person } from "./support";

let s: TestServer;
let brainId: string;
let ana: Person;
let bo: Person;
let teamId: string;
beforeAll(async () => {
  s = await startTestServer({ BRAINBOX_TEAM_QUOTA: "3", BRAINBOX_PRO_QUOTA: "5", BRAINBOX_FREE_BANK: "5" });
  brainId = await newBrain(s, "Shared facts");
  const { source } = await addText(s, brainId, "Tides", "Tides are caused by the gravity of the moon and the sun pulling on the oceans.");
  await waitForSource(s, brainId, source.id);
  ana = await person(s, "Ana", "team");
  bo = await person(s, "Bo", "free");
  await share(s, brainId, ana.id, "viewer");
  await share(s, brainId, bo.id, "viewer");
  // A team made by a Team-plan account is on the Team plan.
  const { team } = await expectJson(await s.api("/api/v1/teams", { method: "POST", json: { name: "Platform" }, key: ana.key }), 201);
  expect(team.plan).toBe("team");
  teamId = team.id;
  await expectJson(await s.api(`/api/v1/teams/${teamId}/members`, { method: "POST", json: { accountId: bo.id }, key: ana.key }), 201);
});
afterAll(() => s.close());

const ask = (key: string) => s.api(`/api/v1/brains/${brainId}/ask`, { method: "POST", json: { question: "What causes tides?" }, key });

describe("team quota", () => {
  test("two members spend one team quota; the fourth question is 429 for both", async () => {
    expect((await expectJson(await ask(ana.key), 200)).quota).toMatchObject({ limit: 3, used: 1, remaining: 2 });
    // Bo's own plan is Free (a bank of 5): as a member of a Team-plan team he spends the team's quota.
    expect((await expectJson(await ask(bo.key), 200)).quota).toMatchObject({ limit: 3, used: 2, remaining: 1 });
    expect((await expectJson(await ask(ana.key), 200)).quota).toMatchObject({ used: 3, remaining: 0 });
    for (const key of [ana.key, bo.key]) {
      const over = await expectJson(await ask(key), 429);
      expect(over.error.code).toBe("quota_exceeded");
      expect(over.quota).toMatchObject({ limit: 3, used: 3, remaining: 0 });
    }
    const usage = await expectJson(await s.api("/api/v1/account", { key: bo.key }), 200);
    expect(usage.usage).toMatchObject({ plan: "team", quota: { limit: 3, used: 3 } });
  });

  test("leaving the team: the person is back on their own plan's counter", async () => {
    await expectJson(await s.api(`/api/v1/teams/${teamId}/members/${bo.id}`, { method: "DELETE", key: bo.key }), 204);
    const body = await expectJson(await ask(bo.key), 200);
    expect(body).toMatchObject({ quota: null, bank: 4 });
  });

  test("the installation admin sets a team's plan; a team without one leaves each member on their own", async () => {
    const { team } = await expectJson(await s.api("/api/v1/teams", { method: "POST", json: { name: "Plain" }, key: bo.key }), 201);
    expect(team.plan).toBeNull();
    const set = await expectJson(await s.api(`/api/v1/teams/${team.id}`, { method: "PATCH", json: { plan: "team" } }), 200);
    expect(set.team.plan).toBe("team");
    expect((await expectJson(await ask(bo.key), 200)).quota).toMatchObject({ limit: 3, used: 1 });
    await expectJson(await s.api(`/api/v1/teams/${team.id}`, { method: "PATCH", json: { plan: null } }), 200);
    expect((await expectJson(await ask(bo.key), 200)).quota).toBeNull();
    await expectJson(await s.api(`/api/v1/teams/${team.id}`, { method: "PATCH", json: { plan: "gold" } }), 422);
  });
});
