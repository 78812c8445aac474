// Paid features fail fast: a paid brain with no facilitator configured stops `serve` with a clear message.
import { afterAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { openDatabase } from "../../../src/db/client";
import { runCli } from "../../support/cli";
import { tempDir } from "../../support/server";

const dataDir = tempDir();
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

test("serve refuses to start when brains are paid and no facilitator is set", async () => {
  expect((await runCli(["keys", "create", "--name", "x"], { BRAINBOX_DATA_DIR: dataDir })).code).toBe(0);
  const db = openDatabase({ dataDir });
  const owner = (await db.client.execute("SELECT id FROM accounts LIMIT 1")).rows[0]!.id as string;
  await db.client.batch([
    { sql: "INSERT INTO brains (id, account_id, name, slug, visibility) VALUES ('brn_paidpaidpaidpaid', ?, 'Paid', 'paid', 'public')", args: [owner] },
    { sql: "INSERT INTO paid_brains (brain_id, price_atomic, pay_to) VALUES ('brn_paidpaidpaidpaid', 10000, '0x000000000000000000000000000000000000dEaD')", args: [] },
  ]);
  db.close();
  const result = await runCli(["serve"], { BRAINBOX_DATA_DIR: dataDir, BRAINBOX_PORT: "0" });
  expect(result.code).toBe(2);
  expect(result.stderr).toContain("no x402 facilitator is configured");
  expect(result.stderr).toContain("BRAINBOX_X402_FACILITATOR_URL");
});
