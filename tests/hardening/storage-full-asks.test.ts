// Asking on a full disk: asking is a read, so its bookkeeping never loses the answer. The quota spent must
// stay exact: when the quota write fails, the ask answers 507 storage_full (HTTP) or the tool error
// storage_full (MCP); the ask history is bookkeeping, skipped (and logged) when it cannot be written.
//
// "Only the history does not fit": a temporary trigger raising SQLite's "database or disk is full" for an ask
// row, the quota counter's write untouched. "Nothing fits": a tmpfs whose last
// byte a filler file takes (root), elsewhere a temporary trigger on the server's connection raising
// SQLite's own "database or disk is full" for the counter's write.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { expectJson, startTestServer, tempDir, type TestServer } from "../support/server";
import { newBrain, waitForSource } from "../support/sources";
import { connectMcp, type McpSession } from "../mcp/support";
import { fillDiskWith } from "../support/fill-disk";

let s: TestServer;
let mcp: McpSession;
let dir: string;
let tmpfs = false;
let brainId: string;

const execute = (sql: string) => s.ctx.database.client.execute(sql);
const ask = (question: string) => s.api(`/api/v1/brains/${brainId}/ask`, { method: "POST", json: { question } });
const quotaUsed = async () => (await expectJson(await s.api("/api/v1/account"), 200)).usage.quota.used as number;
const history = async (): Promise<string[]> => (await expectJson(await s.api(`/api/v1/brains/${brainId}/asks?limit=100`), 200)).asks.map((a: any) => a.question);
const question = (lead: string) => `${lead} Which boats moor at the harbour wall and what dues do they pay to the harbour office?`;

function mountTmpfs(at: string): boolean {
  if (process.getuid?.() !== 0 || process.env.STORAGE_FULL_MODE === "pragma") return false;
  return Bun.spawnSync(["mount", "-t", "tmpfs", "-o", "size=48m", "tmpfs", at]).exitCode === 0;
}

/**
 * The history's table alone is out of space: a temporary trigger on the server's connection raises SQLite's
 * own "database or disk is full" for an ask row (which space a page has left is SQLite's business: a real
 * full disk cannot pick the history's write out deterministically).
 */
async function fillHistoryOnly() {
  await execute(`CREATE TEMP TRIGGER no_history_space BEFORE INSERT ON asks BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END`);
}

/** Nothing can be written at all. */
async function fillEverything() {
  if (!tmpfs) {
    await execute(`CREATE TEMP TRIGGER no_space BEFORE INSERT ON usage_counters BEGIN SELECT RAISE(ABORT, 'database or disk is full'); END`);
    return;
  }
  await execute("PRAGMA wal_checkpoint(TRUNCATE)");
  fillDiskWith(join(dir, "filler"));
}

async function freeUp() {
  rmSync(join(dir, "filler"), { force: true });
  await execute("DROP TRIGGER IF EXISTS temp.no_space");
  await execute("DROP TRIGGER IF EXISTS temp.no_history_space");
}

beforeAll(async () => {
  dir = tempDir();
  tmpfs = mountTmpfs(dir);
  s = await startTestServer({}, join(dir, "data"));
  brainId = await newBrain(s, "Harbour");
  const { source } = await expectJson(
    await s.api(`/api/v1/brains/${brainId}/sources`, { method: "POST", json: { title: "Harbour Dues", content: "Boats moored at the harbour wall pay dues to the harbour office every month. Fishing boats pay half." } }),
    201,
  );
  expect((await waitForSource(s, brainId, source.id)).status).toBe("ready");
  await s.jobLoop()?.stop?.();
  mcp = await connectMcp(s.url, s.key);
  // The period's quota counter exists: spending is an update in place from here on.
  await expectJson(await ask("What dues do boats pay?"), 200);
});
afterAll(async () => {
  await freeUp().catch(() => {});
  await mcp?.close().catch(() => {});
  await s?.close();
  if (tmpfs) Bun.spawnSync(["umount", "-l", dir]);
});

describe("asking while the disk is full", () => {
  test("the quota write fits, the history does not: the answer is given, the quota spent exactly once, the history skipped", async () => {
    const before = await quotaUsed();
    await fillHistoryOnly();
    const body = await expectJson(await ask(question("HTTP:")), 200);
    expect(body.answer).toContain("harbour office");
    expect(body.thin).toBe(false);
    const viaMcp = await mcp.call("ask_brain", { brainId, question: question("MCP:") });
    expect(viaMcp.isError).toBeFalsy();
    expect(viaMcp.structuredContent.answer).toContain("harbour office");
    await freeUp();
    expect(await quotaUsed()).toBe(before + 2);
    const asked = await history();
    expect(asked.some((q) => q.startsWith("HTTP:") || q.startsWith("MCP:"))).toBe(false);
    expect(asked).toContain("What dues do boats pay?");
  });

  test("the quota write fails: 507 storage_full over HTTP, the tool error storage_full over MCP, no question spent", async () => {
    const before = await quotaUsed();
    await fillEverything();
    const res = await ask("What dues do fishing boats pay?");
    const body = await expectJson(res, 507);
    expect(body.error.code).toBe("storage_full");
    expect(body.error.message).toContain("out of disk space");
    const viaMcp = await mcp.call("ask_brain", { brainId, question: "What dues do fishing boats pay?" });
    expect(viaMcp.isError).toBe(true);
    expect(viaMcp.structuredContent.error.code).toBe("storage_full");
    await freeUp();
    expect(await quotaUsed()).toBe(before);
    await expectJson(await ask("What dues do fishing boats pay?"), 200);
    expect(await quotaUsed()).toBe(before + 1);
  });
});
