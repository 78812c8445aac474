// Checkpoints on their own thread (src/db/checkpointer.ts): the log is copied into the database file without
// the writer doing it, the writer's own checkpoint stays as a backstop, and nothing is lost across a reopen.
import { expect, test } from "bun:test";
import { mkdirSync, statSync } from "node:fs";
import { join } from "node:path";
import Database from "libsql";
import { startCheckpointer, WRITER_CHECKPOINT_PAGES } from "../../src/db/checkpointer";
import { openFileClient } from "../../src/db/file-client";
import { createLogger } from "../../src/lib/log";
import { tempDir } from "../support/server";

async function fill(checkpointThread: boolean) {
  const dir = tempDir();
  const path = join(dir, "db.sqlite");
  const lines: string[] = []; // what the checkpoint thread reported, shown should the test fail
  const client = openFileClient(path, { timeoutMs: 5000, checkpointThread, log: createLogger("warn", (line) => lines.push(line)) });
  await client.execute("PRAGMA journal_mode=WAL");
  await client.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT)");
  const body = "x".repeat(2000);
  // ~2 MB in 8 commits: 500 pages, under both the default (1,000) and the backstop (8,000) writer thresholds.
  for (let i = 0; i < 8; i++) await client.batch(Array.from({ length: 125 }, () => ({ sql: "INSERT INTO t (body) VALUES (?)", args: [body] })), "write");
  const pages = Number((await client.execute("PRAGMA wal_autocheckpoint")).rows[0]![0]);
  // A few of the thread's ticks (250 ms); a loaded host may starve the thread, so wait up to 20 s for it.
  const until = Date.now() + (checkpointThread ? 20_000 : 800);
  while (Date.now() < until && !(checkpointThread && statSync(path).size > 2_000_000)) await Bun.sleep(50);
  const fileBytes = statSync(path).size;
  client.close();
  const reopened = openFileClient(path, { timeoutMs: 5000 });
  const rows = Number((await reopened.execute("SELECT count(*) AS n FROM t")).rows[0]!.n);
  reopened.close();
  return { fileBytes, rows, pages, lines };
}

/** ~2 MB in 1,000 rows of table `t`: far over what the file holds before a checkpoint. */
function writeTwoMegabytes(writer: InstanceType<typeof Database>) {
  const insert = writer.prepare("INSERT INTO t (body) VALUES (?)");
  for (let i = 0; i < 1000; i++) insert.run("x".repeat(2000));
}

/** Waits (up to `ms`; a loaded host may starve the thread) for the file to hold what the log held. */
async function untilCheckpointed(path: string, ms: number) {
  const until = Date.now() + ms;
  while (Date.now() < until && statSync(path).size < 2_000_000) await Bun.sleep(50);
}

/** Writes ~2 MB, then expects the running checkpointer to copy it into the file; stops both. */
async function expectWritesCheckpointed(writer: InstanceType<typeof Database>, path: string, checkpointer: { stop(): void }) {
  writeTwoMegabytes(writer);
  await untilCheckpointed(path, 20_000);
  checkpointer.stop();
  expect(statSync(path).size).toBeGreaterThan(2_000_000);
  writer.close();
}

test("the thread copies committed pages into the file; the writer's own threshold is raised to a backstop", async () => {
  const threaded = await fill(true);
  expect(threaded.pages).toBe(8000);
  if (threaded.fileBytes <= 2_000_000) console.error("the checkpoint thread reported:", threaded.lines);
  expect(threaded.fileBytes).toBeGreaterThan(2_000_000); // checkpointed by the thread
  expect(threaded.rows).toBe(1000);
});

test("without the thread the writer keeps SQLite's default and the log holds the pages until its threshold", async () => {
  const plain = await fill(false);
  expect(plain.pages).toBe(1000);
  expect(plain.fileBytes).toBeLessThan(100_000); // nothing checkpointed yet: the pages are in the log
  expect(plain.rows).toBe(1000);
});

test("a thread that opened the file before it was switched to WAL still finds the log and checkpoints it", async () => {
  const path = join(tempDir(), "db.sqlite");
  const writer = new Database(path);
  writer.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT)"); // a rollback-journal file, as before migrations
  const checkpointer = startCheckpointer(path);
  expect(checkpointer).not.toBeNull();
  await checkpointer!.started;
  writer.exec(`PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=${WRITER_CHECKPOINT_PAGES}`);
  await expectWritesCheckpointed(writer, path, checkpointer!);
});

test("a thread that cannot open the file says why, and checkpoints once it can", async () => {
  const dir = join(tempDir(), "not-yet");
  const path = join(dir, "db.sqlite");
  const lines: string[] = [];
  const checkpointer = startCheckpointer(path, createLogger("warn", (line) => lines.push(line)));
  await checkpointer!.started;
  const until = Date.now() + 20_000;
  while (Date.now() < until && lines.length === 0) await Bun.sleep(50);
  expect(lines.join("\n")).toContain("checkpoint failed");
  mkdirSync(dir);
  const writer = new Database(path);
  writer.exec(`PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=${WRITER_CHECKPOINT_PAGES}; CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT)`);
  await expectWritesCheckpointed(writer, path, checkpointer!);
});

test("a checkpoint that finds the file locked is not a failure: nothing is told, and it checkpoints once the lock goes", async () => {
  const path = join(tempDir(), "db.sqlite");
  const writer = new Database(path);
  writer.exec(`PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=${WRITER_CHECKPOINT_PAGES}; CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT)`);
  // The writer holds the file (exclusive locking mode): every tick of the thread finds it locked.
  writer.exec("PRAGMA locking_mode=EXCLUSIVE");
  writeTwoMegabytes(writer);
  const lines: string[] = [];
  const checkpointer = startCheckpointer(path, createLogger("warn", (line) => lines.push(line)));
  await checkpointer!.started;
  await Bun.sleep(1500); // six ticks
  expect(statSync(path).size).toBeLessThan(2_000_000);
  expect(lines).toEqual([]);
  writer.exec("PRAGMA locking_mode=NORMAL");
  writer.prepare("SELECT count(*) FROM t").get(); // the next access gives the lock up
  await untilCheckpointed(path, 20_000);
  checkpointer!.stop();
  expect(statSync(path).size).toBeGreaterThan(2_000_000);
  expect(lines).toEqual([]);
  writer.close();
});
