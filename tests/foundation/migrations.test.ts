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
