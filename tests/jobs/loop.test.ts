// The job loop's batches and the queue's batch claim, on a real database file.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { sql } from "drizzle-orm";
import { migrate, openDatabase, type Database } from "../../src/db/client";
import { startJobLoop, PermanentJobError, type JobHandler } from "../../src/jobs/loop";
import { claimDue, enqueue, pruneDone } from "../../src/queue";
import { createLogger } from "../../src/lib/log";
import { tempDir } from "../support/server";

const dir = tempDir();
let database: Database;
beforeAll(async () => {
  database = openDatabase({ dataDir: dir });
  await migrate(database.client);
});
afterAll(() => {
  database.close();
  rmSync(dir, { recursive: true, force: true });
});

const log = createLogger("error");
const statusOf = async (kind: string) =>
  Object.fromEntries(
    (await database.db.all<{ status: string; n: number }>(sql`SELECT status, count(*) AS n FROM jobs WHERE kind = ${kind} GROUP BY status`)).map((r) => [r.status, Number(r.n)]),
  );
async function until(check: () => Promise<boolean>, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out: ${JSON.stringify(await database.db.all(sql`SELECT kind, subject_id, status, attempts, last_error FROM jobs WHERE status != 'done'`))}`);
    await Bun.sleep(20);
  }
}

describe("claimDue", () => {
  test("claims up to the limit in due order, then expired leases of a dead worker, never a future job", async () => {
    const db = database.db;
    const now = Date.now();
    for (let i = 0; i < 5; i++) await enqueue(db, { kind: "claim-order", subjectId: `s${i}`, maxAttempts: 3, runAfter: now - 1000 + i });
    await enqueue(db, { kind: "claim-order", subjectId: "later", maxAttempts: 3, runAfter: now + 60_000 });
    const first = await claimDue(db, "w1", 50, ["claim-order"], 3);
    expect(first.map((j) => j.subjectId)).toEqual(["s0", "s1", "s2"]);
    expect(first.every((j) => j.status === "running" && j.attempts === 1 && j.leaseOwner === "w1")).toBe(true);
    const rest = await claimDue(db, "w2", 60_000, ["claim-order"], 10);
    expect(rest.map((j) => j.subjectId)).toEqual(["s3", "s4"]);
    await Bun.sleep(80); // w1's lease (50 ms) runs out: w1 died
    const again = await claimDue(db, "w3", 60_000, ["claim-order"], 10);
    expect(again.map((j) => j.subjectId).sort()).toEqual(["s0", "s1", "s2"]);
    expect(again.every((j) => j.attempts === 2)).toBe(true);
    expect(await claimDue(db, "w4", 60_000, ["claim-order"], 10)).toEqual([]);
  });
});

describe("a full disk", () => {
  test("a job that meets a full disk waits and runs again without using up its attempts", async () => {
    // A real SQLITE_FULL from a real database file held at its page limit.
    const fullDir = tempDir();
    const full = openDatabase({ dataDir: fullDir });
    let diskFull: unknown;
    try {
      await full.client.execute("CREATE TABLE filler (x TEXT)");
      const pages = Number((await full.client.execute("PRAGMA page_count")).rows[0]![0]);
      await full.client.execute(`PRAGMA max_page_count = ${pages}`);
      await full.client.execute("INSERT INTO filler SELECT hex(randomblob(8000)) FROM (SELECT 1 UNION SELECT 2)");
    } catch (e) {
      diskFull = e;
    } finally {
      full.close();
      rmSync(fullDir, { recursive: true, force: true });
    }
    expect(String((diskFull as Error)?.message)).toMatch(/full/i);
    const db = database.db;
    let runs = 0;
    const handler: JobHandler = {
      kind: "disk-full",
      async run() {
        runs++;
        if (runs <= 4) throw diskFull; // more failures than the job's attempts allow
      },
      async onGiveUp() {},
    };
    await enqueue(db, { kind: "disk-full", subjectId: "s", maxAttempts: 2 });
    const loop = startJobLoop({ db, log, handlers: [handler], concurrency: 1, leaseMs: 30_000, retryBaseMs: 10, pollMs: 20 });
    try {
      await until(async () => (await statusOf("disk-full")).done === 1, 30_000);
    } finally {
      await loop.stop();
    }
    expect(runs).toBe(5);
    expect(await statusOf("disk-full")).toEqual({ done: 1 });
    expect(loop.stats().failedAttempts).toBe(0);
  });
});

describe("job loop batches", () => {
  test("a batch handler gets its jobs in batches; every job completes once; one failing job fails alone and is retried", async () => {
    const db = database.db;
    const seen: string[][] = [];
    const attempts = new Map<string, number>();
    const handler: JobHandler = {
      kind: "batchy",
      batchSize: 4,
      async run() {
        throw new Error("run is not used when runBatch exists");
      },
      async runBatch(jobs) {
        seen.push(jobs.map((j) => j.subjectId));
        return jobs.map((j) => {
          attempts.set(j.subjectId, (attempts.get(j.subjectId) ?? 0) + 1);
          if (j.subjectId === "bad") return new PermanentJobError("bad input");
          if (j.subjectId === "flaky" && attempts.get("flaky") === 1) return new Error("try again");
          return undefined;
        });
      },
      async onGiveUp() {},
    };
    for (let i = 0; i < 10; i++) await enqueue(db, { kind: "batchy", subjectId: `ok${i}`, maxAttempts: 3 });
    await enqueue(db, { kind: "batchy", subjectId: "bad", maxAttempts: 3 });
    await enqueue(db, { kind: "batchy", subjectId: "flaky", maxAttempts: 3 });
    const loop = startJobLoop({ db, log, handlers: [handler], concurrency: 2, leaseMs: 30_000, retryBaseMs: 10, pollMs: 20 });
    try {
      await until(async () => {
        const s = await statusOf("batchy");
        return s.done === 11 && s.failed === 1;
      });
    } finally {
      await loop.stop();
    }
    expect(seen.some((b) => b.length > 1)).toBe(true);
    expect(seen.every((b) => b.length <= 4)).toBe(true);
    for (let i = 0; i < 10; i++) expect(attempts.get(`ok${i}`)).toBe(1);
    expect(attempts.get("bad")).toBe(1); // permanent: not retried
    expect(attempts.get("flaky")).toBe(2);
    const bad = await db.all<{ last_error: string }>(sql`SELECT last_error FROM jobs WHERE kind = 'batchy' AND subject_id = 'bad'`);
    expect(bad[0]!.last_error).toBe("bad input");
    expect(loop.stats().completed).toBe(11);
  });

  test("a job whose lease ran out while it still runs here is not started a second time beside itself", async () => {
    const db = database.db;
    let runs = 0;
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const handler: JobHandler = {
      kind: "outlived",
      async run(job) {
        runs++;
        // The lease runs out under the running job (a blocked event loop missed its heartbeats): the next
        // claim finds it expired, as it would a dead worker's.
        await db.run(sql`UPDATE jobs SET lease_expires_at = 0 WHERE id = ${job.id}`);
        await held;
      },
      async onGiveUp() {},
    };
    await enqueue(db, { kind: "outlived", subjectId: "one", maxAttempts: 5 });
    const loop = startJobLoop({ db, log, handlers: [handler], concurrency: 2, leaseMs: 30_000, retryBaseMs: 10, pollMs: 20 });
    try {
      await until(async () => runs > 0);
      // Polls while the first run holds: none claims the expired lease again (no second attempt, no second run).
      await Bun.sleep(200);
      expect(runs).toBe(1);
      expect(Number((await db.all<{ attempts: number }>(sql`SELECT attempts FROM jobs WHERE kind = 'outlived'`))[0]!.attempts)).toBe(1);
      release();
      await until(async () => (await statusOf("outlived")).done === 1);
    } finally {
      release();
      await loop.stop();
    }
    expect(runs).toBe(1);
  });

  test("a batch that yields its slot lets the next one start while it waits; the others still wait for a slot", async () => {
    const db = database.db;
    const events: string[] = [];
    let releaseFirst!: () => void;
    let releaseSecond!: () => void;
    const firstWaits = new Promise<void>((r) => (releaseFirst = r));
    const secondWaits = new Promise<void>((r) => (releaseSecond = r));
    let batches = 0;
    const handler: JobHandler = {
      kind: "yieldy",
      batchSize: 2,
      async run() {},
      async runBatch(jobs, _signal, yieldSlot) {
        const n = ++batches;
        events.push(`start ${n}`);
        if (n === 1) {
          yieldSlot();
          yieldSlot(); // twice counts once
          await firstWaits;
        } else if (n === 2) {
          releaseFirst(); // the first is still running: it gave its slot to this one
          await Bun.sleep(100);
          await secondWaits;
        }
        events.push(`end ${n}`);
        return jobs.map(() => undefined);
      },
      async onGiveUp() {},
    };
    for (let i = 0; i < 6; i++) await enqueue(db, { kind: "yieldy", subjectId: `y${i}`, maxAttempts: 3 });
    const loop = startJobLoop({ db, log, handlers: [handler], concurrency: 1, leaseMs: 30_000, retryBaseMs: 10, pollMs: 20 });
    try {
      await until(async () => events.includes("end 1"));
      await Bun.sleep(100);
      // The second holds the only slot (it did not yield): the third has not started.
      expect(events).toEqual(["start 1", "start 2", "end 1"]);
      releaseSecond();
      await until(async () => (await statusOf("yieldy")).done === 6);
    } finally {
      await loop.stop();
    }
    expect(events).toEqual(["start 1", "start 2", "end 1", "end 2", "start 3", "end 3"]);
    expect(loop.stats().completed).toBe(6);
  });

  test("a runBatch that throws fails every job of its batch (and they are retried)", async () => {
    const db = database.db;
    let calls = 0;
    const handler: JobHandler = {
      kind: "throwy",
      batchSize: 8,
      async run() {},
      async runBatch(jobs) {
        calls++;
        if (calls === 1) throw new Error("database unavailable");
        return jobs.map(() => undefined);
      },
      async onGiveUp() {},
    };
    for (let i = 0; i < 3; i++) await enqueue(db, { kind: "throwy", subjectId: `t${i}`, maxAttempts: 3 });
    const loop = startJobLoop({ db, log, handlers: [handler], concurrency: 1, leaseMs: 30_000, retryBaseMs: 10, pollMs: 20 });
    try {
      await until(async () => (await statusOf("throwy")).done === 3);
    } finally {
      await loop.stop();
    }
    const rows = await db.all<{ attempts: number }>(sql`SELECT attempts FROM jobs WHERE kind = 'throwy'`);
    expect(rows.every((r) => Number(r.attempts) === 2)).toBe(true);
  });
});

describe("finished jobs are forgotten", () => {
  const DAY = 24 * 3600_000;
  const add = (kind: string, subject: string, status: string, runAfter: number) =>
    database.db.run(sql`INSERT INTO jobs (kind, subject_id, status, max_attempts, run_after) VALUES (${kind}, ${subject}, ${status}, 3, ${runAfter})`);
  const subjects = async (kind: string) =>
    (await database.db.all<{ subject_id: string }>(sql`SELECT subject_id FROM jobs WHERE kind = ${kind} ORDER BY subject_id`)).map((r) => r.subject_id);

  test("pruneDone removes finished jobs due before the cut, up to its limit; failed, queued and recent ones stay", async () => {
    const now = Date.now();
    await add("prune", "done-old-1", "done", now - 3 * DAY);
    await add("prune", "done-old-2", "done", now - 2 * DAY);
    await add("prune", "done-recent", "done", now - 3600_000);
    await add("prune", "failed-old", "failed", now - 3 * DAY);
    await add("prune", "queued-later", "queued", now + DAY);
    expect(await pruneDone(database.db, now - DAY, 1)).toBe(1); // the oldest first
    expect(await subjects("prune")).toEqual(["done-old-2", "done-recent", "failed-old", "queued-later"]);
    expect(await pruneDone(database.db, now - DAY)).toBe(1);
    expect(await pruneDone(database.db, now - DAY)).toBe(0);
    expect(await subjects("prune")).toEqual(["done-recent", "failed-old", "queued-later"]);
  });

  test("the loop forgets finished jobs past the retention and keeps the ones it just ran", async () => {
    const db = database.db;
    await add("prune-loop", "finished-long-ago", "done", Date.now() - 2 * DAY);
    await enqueue(db, { kind: "prune-loop", subjectId: "fresh", maxAttempts: 3 });
    const handler: JobHandler = { kind: "prune-loop", async run() {}, async onGiveUp() {} };
    const loop = startJobLoop({ db, log, handlers: [handler], concurrency: 1, leaseMs: 30_000, retryBaseMs: 10, pollMs: 20, doneRetentionMs: DAY });
    try {
      await until(async () => (await subjects("prune-loop")).join() === "fresh" && (await statusOf("prune-loop")).done === 1);
    } finally {
      await loop.stop();
    }
    expect(await statusOf("prune-loop")).toEqual({ done: 1 });
  });
});
