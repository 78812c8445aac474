// Migration 0009 on a database holding payments from before it: every row survives; settled rows count as
// delivered (their payers got their answers then); brain and action are filled in from the resource URL.
import { expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { openDatabase } from "../../src/db/client";
import { migrations } from "../../src/db/migrations";
import { tempDir } from "../support/server";

test("0009 keeps old payments, marks settled ones delivered, and backfills brain_id and action", async () => {
  const dir = tempDir();
  const db = openDatabase({ dataDir: dir });
  try {
    const apply = async (tags: (tag: string) => boolean) => {
      for (const m of migrations.filter((m) => tags(m.tag))) for (const statement of m.statements) await db.client.execute(statement);
    };
    await apply((tag) => tag < "0009");
    const row = (nonce: string, resource: string, status: string) => ({
      sql: "INSERT INTO payments (nonce, payer, pay_to, resource, amount_atomic, status, tx_hash, updated_at) VALUES (?, '0xpayer', '0xpayto', ?, '1000', ?, ?, 1700000000000)",
      args: [nonce, resource, status, status === "settled" ? "0xtx" : null],
    });
    await db.client.execute(row("0x01", "https://bb.example/api/x402/brn_abc123/ask", "settled"));
    await db.client.execute(row("0x02", "https://bb.example/mcp?tool=ask_brain&brainId=brn_def456", "voided"));
    await db.client.execute(row("0x03", "https://bb.example/api/x402/geo/scan", "unknown"));
    await db.client.execute(row("0x04", "https://bb.example/api/x402/clips/render", "settled"));
    await apply((tag) => tag.startsWith("0009"));
    const rows = await db.client.execute("SELECT nonce, status, tx_hash, brain_id, action, x402_version, delivered_at FROM payments ORDER BY nonce");
    expect(rows.rows.map((r) => ({ ...r }) as Record<string, unknown>)).toEqual([
      { nonce: "0x01", status: "settled", tx_hash: "0xtx", brain_id: "brn_abc123", action: null, x402_version: 1, delivered_at: 1700000000000 },
      { nonce: "0x02", status: "voided", tx_hash: null, brain_id: "brn_def456", action: null, x402_version: 1, delivered_at: null },
      { nonce: "0x03", status: "unknown", tx_hash: null, brain_id: null, action: "geo/scan", x402_version: 1, delivered_at: null },
      { nonce: "0x04", status: "settled", tx_hash: "0xtx", brain_id: null, action: "clips/render", x402_version: 1, delivered_at: 1700000000000 },
    ]);
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
