// A database built by an older schema: every migration before `tag` applied and recorded, so a test can put
// rows in the old shape and then run `migrate` to the current one.
import { migrate, openDatabase } from "../../src/db/client";
import { migrations } from "../../src/db/migrations";
import { tempDir } from "./temp-dirs";

export async function databaseBefore(tag: string, dataDir: string) {
  const db = openDatabase({ dataDir });
  const c = db.client;
  await c.execute("CREATE TABLE IF NOT EXISTS __drizzle_migrations (id INTEGER PRIMARY KEY AUTOINCREMENT, hash text NOT NULL, created_at numeric)");
  for (const m of migrations.filter((m) => m.tag < tag)) {
    for (const statement of m.statements) await c.execute(statement);
    await c.execute({ sql: "INSERT INTO __drizzle_migrations (hash, created_at) VALUES ('x', ?)", args: [m.when] });
  }
  return db;
}

/** A database before `tag` holding account `acc`, brain `brainId` and ready `sources` ([id, type, title]). */
export async function databaseWithSources(tag: string, dataDir: string, brainId: string, sources: [string, string, string][]) {
  const db = await databaseBefore(tag, dataDir);
  await db.client.execute("INSERT INTO accounts (id, name, plan_id) VALUES ('acc', 'A', 'free')");
  await db.client.execute({ sql: "INSERT INTO brains (id, account_id, name, slug) VALUES (?, 'acc', ?, ?)", args: [brainId, brainId, brainId] });
  for (const [id, type, title] of sources)
    await db.client.execute({ sql: "INSERT INTO sources (id, brain_id, type, title, status) VALUES (?, ?, ?, ?, 'ready')", args: [id, brainId, type, title] });
  return db;
}

/** A database at the current schema in a temp dir (removed with the run's), holding account `acc` and `brains`. */
export async function currentDatabase(brains: string[]) {
  const db = openDatabase({ dataDir: tempDir() });
  await migrate(db.client);
  await db.client.execute("INSERT INTO accounts (id, name, plan_id) VALUES ('acc', 'A', 'free')");
  for (const id of brains) await db.client.execute({ sql: "INSERT INTO brains (id, account_id, name, slug) VALUES (?, 'acc', ?, ?)", args: [id, id, id] });
  return db;
}
