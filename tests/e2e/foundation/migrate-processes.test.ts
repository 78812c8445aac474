// Two `brainbox migrate` child processes (the CLI, so the end-to-end tier) on one new database at once.
import { expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { migrations } from "../../../src/db/migrations";
import { openDatabase } from "../../../src/db/client";
import { runCli } from "../../support/cli";
import { tempDir } from "../../support/server";

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
