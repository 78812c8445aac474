import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectJson, NO_SOURCES, startTestServer, type TestServer } from "../support/server";
import { spendQuestion } from "../../src/modules/plans/metering";
import { getAccount } from "../../src/modules/accounts/service";

// The `accounts` commands (a CLI child process): tests/e2e/plans/accounts-cli.test.ts.

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ ...NO_SOURCES, BRAINBOX_FREE_BANK: "3", BRAINBOX_PRO_QUOTA: "10", BRAINBOX_DAILY_QUOTA: "5" });
});
afterAll(() => s.close());

describe("accounts", () => {
  test("the owner is an admin on the team plan and sees its usage", async () => {
    const me = await expectJson(await s.api("/api/v1/account"), 200);
    expect(me.account).toMatchObject({ plan: "team", isAdmin: true });
    expect(me.usage).toMatchObject({ plan: "team", metering: "quota", brainSets: true });
    expect(me.usage.quota).toMatchObject({ used: 0, period: "month" });
    expect(me.usage.daily).toMatchObject({ limit: 5, used: 0, remaining: 5, period: "day" });
  });

  test("the admin creates accounts with a first key; each sees only its own brains", async () => {
    const made = await expectJson(await s.api("/api/v1/admin/accounts", { method: "POST", json: { name: "Alice" } }), 201);
    expect(made.account).toMatchObject({ name: "Alice", plan: "free", isAdmin: false });
    expect(made.apiKey.key).toStartWith("bb_live_");
    const alice = made.apiKey.key;
    const me = await expectJson(await s.api("/api/v1/account", { key: alice }), 200);
    expect(me.usage).toMatchObject({ plan: "free", metering: "bank", quota: null, bank: { limit: 3, remaining: 3, period: "lifetime" } });
    const { brain } = await expectJson(await s.api("/api/v1/brains", { method: "POST", json: { name: "Owner only" } }), 201);
    await expectJson(await s.api(`/api/v1/brains/${brain.id}`, { key: alice }), 404);
    expect((await expectJson(await s.api("/api/v1/brains", { key: alice }), 200)).brains).toEqual([]);

    const upgraded = await expectJson(await s.api(`/api/v1/admin/accounts/${made.account.id}`, { method: "PATCH", json: { plan: "pro" } }), 200);
    expect(upgraded.account.plan).toBe("pro");
    const one = await expectJson(await s.api(`/api/v1/admin/accounts/${made.account.id}`), 200);
    expect(one.usage.quota.limit).toBe(10);
    // Not an admin: 403 on every admin route.
    for (const [method, path, json] of [
      ["GET", "/api/v1/admin/accounts"],
      ["POST", "/api/v1/admin/accounts", { name: "x" }],
      ["PATCH", `/api/v1/admin/accounts/${made.account.id}`, { plan: "team" }],
    ] as const) {
      expect((await expectJson(await s.api(path, { method, json, key: alice }), 403)).error.code).toBe("forbidden");
    }
  });

  test("bad admin input", async () => {
    expect((await expectJson(await s.api("/api/v1/admin/accounts", { method: "POST", json: { name: "x", plan: "gold" } }), 422)).error.field).toBe("plan");
    expect((await expectJson(await s.api("/api/v1/admin/accounts", { method: "POST", json: { name: " " } }), 422)).error.field).toBe("name");
    await expectJson(await s.api("/api/v1/admin/accounts/acc_missing", { method: "PATCH", json: { plan: "pro" } }), 404);
  });

  test("spending is exact under concurrency: 50 parallel spends against 10 left → exactly 10", async () => {
    const made = await expectJson(await s.api("/api/v1/admin/accounts", { method: "POST", json: { name: "Busy", plan: "pro" } }), 201);
    const account = await getAccount(s.ctx.db, made.account.id);
    const results = await Promise.allSettled(Array.from({ length: 50 }, () => spendQuestion(s.ctx.db, s.ctx.config, account)));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(10);
    const rejected = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(rejected.every((r) => r.reason.code === "quota_exceeded")).toBe(true);
    const me = await expectJson(await s.api("/api/v1/account", { key: made.apiKey.key }), 200);
    expect(me.usage.quota).toMatchObject({ limit: 10, used: 10, remaining: 0 });
  });
});
