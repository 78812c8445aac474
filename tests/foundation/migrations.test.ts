import { expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { embeddedTags, migrations } from "../../src/db/migrations";
import { rmSync } from "node:fs";
import { openDatabase } from "../../src/db/client";
import { openFileClient } from "../../src/db/file-client";
import { tempDir } from "../support/server";

// Two `brainbox migrate` child processes on one new database: tests/e2e/foundation/migrate-processes.test.ts.

test("every SQL file in migrations/ is embedded, in journal order", () => {
  const files = readdirSync(join(import.meta.dir, "../../migrations"))
    .filter((f) => f.endsWith(".sql"))
    .map((f) => f.replace(/\.sql$/, ""))
    .sort();
  expect(embeddedTags.sort()).toEqual(files);
  expect(migrations.map((m) => m.tag)).toEqual(files);
});

/** Another process holding the write lock of `dir`'s database for `ms`; resolves once it holds it. */
async function lockHolder(dir: string, ms: number) {
  const holder = Bun.spawn([process.execPath, "-e", `
    const { createClient } = require("@libsql/client");
    const c = createClient({ url: "file:${dir}/brainbox.db" });
    const tx = await c.transaction("write");
    await tx.execute("INSERT INTO t VALUES (0)");
    console.log("locked");
    await Bun.sleep(${ms});
    await tx.rollback();
  `], { cwd: join(import.meta.dir, "../.."), stdout: "pipe" });
  await holder.stdout.getReader().read();
  return holder;
}

/** The embedded client with a short busy timeout (the server's is 5 s), on a table `t`. */
async function clientWithTable(dir: string) {
  const client = openFileClient(join(dir, "brainbox.db"), { timeoutMs: 300 });
  await client.execute("PRAGMA journal_mode=WAL");
  await client.execute("CREATE TABLE IF NOT EXISTS t (x INTEGER)");
  return client;
}

test("a connection that hit SQLITE_BUSY is replaced, so later writes really commit", async () => {
  const dir = tempDir();
  const a = await clientWithTable(dir);
  // Another process holds the write lock for longer than the busy timeout, twice over (a write runs twice).
  const holder = await lockHolder(dir, 2000);
  const failed = await a.execute("INSERT INTO t VALUES (1)").then(() => null, (e) => e);
  expect(String(failed?.code ?? failed)).toContain("SQLITE_BUSY");
  await holder.exited;
  await a.execute("INSERT INTO t VALUES (2)");
  a.close();
  const b = openDatabase({ dataDir: dir });
  const rows = await b.client.execute("SELECT x FROM t ORDER BY x");
  b.close();
  expect(rows.rows.map((r) => Number(r.x))).toEqual([2]);
  rmSync(dir, { recursive: true, force: true });
});

test("a write that met SQLITE_BUSY once runs again on a fresh connection: a lock held a little past the timeout loses nothing", async () => {
  const dir = tempDir();
  const a = await clientWithTable(dir);
  const holder = await lockHolder(dir, 450);
  // A statement and a batch, each waiting out one timeout (300 ms), then run again once the lock is gone.
  const [one, batch] = await Promise.all([
    a.execute("INSERT INTO t VALUES (1)"),
    a.batch([{ sql: "INSERT INTO t VALUES (2)", args: [] }, { sql: "INSERT INTO t VALUES (3)", args: [] }]),
  ]);
  expect(one.rowsAffected).toBe(1);
  expect(batch.map((r) => r.rowsAffected)).toEqual([1, 1]);
  await holder.exited;
  const rows = await a.execute("SELECT x FROM t ORDER BY x");
  a.close();
  expect(rows.rows.map((r) => Number(r.x))).toEqual([1, 2, 3]);
  rmSync(dir, { recursive: true, force: true });
});
