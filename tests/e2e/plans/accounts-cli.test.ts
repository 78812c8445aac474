// The `accounts` commands as a real child process on the data dir of an in-process server, checked over its HTTP API.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { lastLine, runCli } from "../../support/cli";
import { expectJson, startTestServer, type TestServer } from "../../support/server";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ BRAINBOX_FREE_BANK: "3", BRAINBOX_PRO_QUOTA: "10", BRAINBOX_DAILY_QUOTA: "5" });
});
afterAll(() => s.close());

describe("accounts CLI", () => {
  test("accounts create prints the key last; plan changes; list shows them", async () => {
    const env = { BRAINBOX_DATA_DIR: s.dataDir };
    const made = await runCli(["accounts", "create", "--name", "Bob", "--plan", "pro"], env);
    expect(made.code).toBe(0);
    const key = lastLine(made.stdout);
    const me = await expectJson(await s.api("/api/v1/account", { key }), 200);
    expect(me.account).toMatchObject({ name: "Bob", plan: "pro" });
    const changed = await runCli(["accounts", "plan", me.account.id, "team"], env);
    expect(changed.code).toBe(0);
    expect((await expectJson(await s.api("/api/v1/account", { key }), 200)).account.plan).toBe("team");
    const list = await runCli(["accounts", "list"], env);
    expect(list.stdout).toContain(me.account.id);
    const bad = await runCli(["accounts", "create", "--name", "X", "--plan", "gold"], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--plan must be one of");
    const missing = await runCli(["accounts", "plan", "acc_nope", "pro"], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("not found");
  });
});
