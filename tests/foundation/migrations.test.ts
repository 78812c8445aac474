import { expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { embeddedTags, migrations } from "../../src/db/migrations";
import { rmSync } from "node:fs";
import { openDatabase } from "../../src/db/client";
import { runCli } from "../support/cli";
import { tempDir } from "../support/server";

test("every SQL file in migrations/ is embedded, in journal order", () => {
  const files = readdirSync(join(import.meta.dir, "../../migrations"))
    .filter((f) => f.endsWith(".sql"))
    .map((f) => f.replace(/\.sql$/, ""))
    .sort();
  expect(embeddedTags.sort()).toEqual(files);
  expect(migrations.map((m) => m.tag)).toEqual(files);
});

test("two processes migrating one new database apply each migration once", async () => {
  const dir = tempDir();
  const results = await Promise.all([runCli(["migrate"], { BRAINBOX_DATA_DIR: dir }), runCli(["migrate"], { BRAINBOX_DATA_DIR: dir })]);
  expect(results.map((r) => r.code)).toEqual([0, 0]);
  const db = openDatabase({ dataDir: dir });
  const applied = await db.client.execute("SELECT count(*) AS n FROM __drizzle_migrations");
  expect(Number(applied.rows[0]?.n)).toBe(migrations.length);
  expect((await db.client.execute("PRAGMA journal_mode")).rows[0]?.journal_mode).toBe("wal");
  expect((await db.client.execute("SELECT name FROM sqlite_master WHERE name = 'pages_fts'")).rows).toHaveLength(1);
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

test("a connection that hit SQLITE_BUSY is replaced, so later writes really commit", async () => {
  const dir = tempDir();
  const a = openDatabase({ dataDir: dir });
  await a.client.execute("CREATE TABLE t (x INTEGER)");
  // Another process holds the write lock for longer than the 5 s busy timeout.
  const holder = Bun.spawn([process.execPath, "-e", `
    const { createClient } = require("@libsql/client");
    const c = createClient({ url: "file:${dir}/brainbox.db" });
    const tx = await c.transaction("write");
    await tx.execute("INSERT INTO t VALUES (0)");
    console.log("locked");
    await Bun.sleep(6500);
    await tx.rollback();
  `], { cwd: join(import.meta.dir, "../.."), stdout: "pipe" });
  const reader = holder.stdout.getReader();
  await reader.read();
  const failed = await a.client.execute("INSERT INTO t VALUES (1)").then(() => null, (e) => e);
  expect(String(failed?.code ?? failed)).toContain("SQLITE_BUSY");
  await holder.exited;
  await a.client.execute("INSERT INTO t VALUES (2)");
  a.close();
  const b = openDatabase({ dataDir: dir });
  const rows = await b.client.execute("SELECT x FROM t ORDER BY x");
  b.close();
  expect(rows.rows.map((r) => Number(r.x))).toEqual([2]);
  rmSync(dir, { recursive: true, force: true });
}, 30_000);
