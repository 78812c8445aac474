// The durable job queue in the database. Every transition is one atomic statement, so any number of
// workers, in this process or in replicas on the same database, never lose or double a job: a claim takes
// a lease; a worker that dies lets its lease expire and the job is claimed again.
import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { jobs } from "../db/schema";
import { ALWAYS, runBatch, type Fragment, type Statement } from "../db/plain";

export type Job = typeof jobs.$inferSelect;

export interface EnqueueInput {
  kind: string;
  subjectId: string;
  payload?: Record<string, unknown>;
  maxAttempts: number;
  runAfter?: number;
}

/** An INSERT of a job, for a batch (runBatch) beside the write that makes the job necessary; `onlyIf` guards it. */
export function enqueueStatement(job: EnqueueInput, onlyIf: Fragment = ALWAYS): Statement {
  return {
    sql: `INSERT INTO jobs (kind, subject_id, payload, max_attempts, run_after) SELECT ?, ?, ?, ?, ? WHERE ${onlyIf.sql}`,
    args: [job.kind, job.subjectId, JSON.stringify(job.payload ?? {}), job.maxAttempts, job.runAfter ?? Date.now(), ...onlyIf.args],
  };
}

/** Enqueues a job now (when `onlyIf` holds); true when it was added. */
export async function enqueue(db: Db, job: EnqueueInput, onlyIf?: Fragment): Promise<boolean> {
  const [result] = await runBatch(db, [enqueueStatement(job, onlyIf)]);
  return result!.rowsAffected > 0;
}

/**
 * Claims up to `limit` due jobs in one statement: expired leases first (a dead worker's jobs), then queued
 * jobs in due order. Each half reads the claim index in order and stops at `limit`, so a claim costs the
 * same with 50 or 50,000 jobs waiting (one OR'd query sorted every due job for each claim). `runningHere`
 * are the claimer's own jobs still running: a lease of theirs that ran out (heartbeats missed on a blocked
 * event loop) is no dead worker's, and claiming it again would start a second run and outdate the first
 * run's claim (its `attempts`, which its writes are fenced by).
 */
export async function claimDue(db: Db, owner: string, leaseMs: number, kinds: string[], limit: number, runningHere: readonly number[] = []): Promise<Job[]> {
  const now = Date.now();
  const kindList = sql.join(kinds.map((k) => sql`${k}`), sql`, `);
  const rows = await db.all<Record<string, unknown>>(sql`UPDATE ${jobs}
    SET status = 'running', lease_owner = ${owner}, lease_expires_at = ${now + leaseMs},
        attempts = attempts + 1, updated_at = ${now}
    WHERE id IN (
      SELECT id FROM (SELECT id FROM ${jobs} WHERE status = 'running' AND lease_expires_at < ${now} AND kind IN (${kindList})
        AND id NOT IN (SELECT value FROM json_each(${JSON.stringify(runningHere)})) LIMIT ${limit})
      UNION ALL
      SELECT id FROM (SELECT id FROM ${jobs} WHERE status = 'queued' AND run_after <= ${now} AND kind IN (${kindList})
        ORDER BY run_after, id LIMIT ${limit})
      LIMIT ${limit})
    RETURNING *`);
  return rows.map(toJob).sort((a, b) => a.runAfter - b.runAfter || a.id - b.id);
}

/** Claims the next due job, or null. */
export async function claimNext(db: Db, owner: string, leaseMs: number, kinds: string[]): Promise<Job | null> {
  return (await claimDue(db, owner, leaseMs, kinds, 1))[0] ?? null;
}

function toJob(row: Record<string, unknown>): Job {
  return {
    id: Number(row.id),
    kind: String(row.kind),
    subjectId: String(row.subject_id),
    payload: row.payload ? JSON.parse(String(row.payload)) : {},
    status: row.status as Job["status"],
    attempts: Number(row.attempts),
    maxAttempts: Number(row.max_attempts),
    runAfter: Number(row.run_after),
    leaseOwner: (row.lease_owner as string) ?? null,
    leaseExpiresAt: row.lease_expires_at === null ? null : Number(row.lease_expires_at),
    lastError: (row.last_error as string) ?? null,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

const ownedBy = (job: Job, owner: string) => sql`id = ${job.id} AND lease_owner = ${owner} AND status = 'running'`;

/** Extends the lease; false when the job is no longer ours (lease lost to another worker). */
export async function renewLease(db: Db, job: Job, owner: string, leaseMs: number): Promise<boolean> {
  const rows = await db.all(sql`UPDATE ${jobs} SET lease_expires_at = ${Date.now() + leaseMs}
    WHERE ${ownedBy(job, owner)} RETURNING id`);
  return rows.length > 0;
}

/** Extends the leases of several jobs in one statement; returns the ids still ours. */
export async function renewLeases(db: Db, ids: number[], owner: string, leaseMs: number): Promise<Set<number>> {
  const rows = await db.all<{ id: number }>(sql`UPDATE ${jobs} SET lease_expires_at = ${Date.now() + leaseMs}
    WHERE id IN (${sql.join(ids.map((id) => sql`${id}`), sql`, `)}) AND lease_owner = ${owner} AND status = 'running' RETURNING id`);
  return new Set(rows.map((r) => Number(r.id)));
}

/** Marks several jobs done in one statement (those still ours). */
export async function completeMany(db: Db, ids: number[], owner: string): Promise<void> {
  if (ids.length === 0) return;
  await db.run(sql`UPDATE ${jobs} SET status = 'done', lease_owner = NULL, lease_expires_at = NULL, updated_at = ${Date.now()}
    WHERE id IN (${sql.join(ids.map((id) => sql`${id}`), sql`, `)}) AND lease_owner = ${owner} AND status = 'running'`);
}

export function completeStatement(db: Db, job: Job, owner: string) {
  return db.run(sql`UPDATE ${jobs} SET status = 'done', lease_owner = NULL, lease_expires_at = NULL, updated_at = ${Date.now()}
    WHERE ${ownedBy(job, owner)}`);
}

/** Schedules another attempt after `delayMs`, or marks the job failed when attempts are used up. */
export async function failAttempt(db: Db, job: Job, owner: string, error: string, delayMs: number, final: boolean): Promise<void> {
  await db.run(sql`UPDATE ${jobs}
    SET status = ${final ? "failed" : "queued"}, run_after = ${Date.now() + delayMs}, last_error = ${error},
        lease_owner = NULL, lease_expires_at = NULL, updated_at = ${Date.now()}
    WHERE ${ownedBy(job, owner)}`);
}

/**
 * Gives a job back untouched (shutdown, or waiting): the attempt it took does not count, nor does a document
 * read it had started (the `extracting` mark, jobs/ingest-source/extraction-marks.ts).
 */
export async function release(db: Db, job: Job, owner: string, delayMs = 0): Promise<void> {
  await db.run(sql`UPDATE ${jobs} SET status = 'queued', attempts = max(attempts - 1, 0), lease_owner = NULL,
    payload = json_remove(coalesce(payload, '{}'), '$.extracting'),
    lease_expires_at = NULL, run_after = ${Date.now() + delayMs}, updated_at = ${Date.now()}
    WHERE ${ownedBy(job, owner)}`);
}

/**
 * Forgets finished jobs that were due before `before`, at most `limit` a call; returns how many. Nothing
 * reads a finished job, and kept forever they grew the table (and its claim index) by a row per source.
 * Failed jobs stay: they are what an operator looks for (queueDepth counts them). Reads the claim index's
 * `done` range in due order, so a call costs the same however many finished jobs are still kept.
 */
export async function pruneDone(db: Db, before: number, limit = 1000): Promise<number> {
  const [result] = await runBatch(db, [
    {
      sql: "DELETE FROM jobs WHERE id IN (SELECT id FROM jobs WHERE status = 'done' AND run_after < ? ORDER BY run_after LIMIT ?)",
      args: [before, limit],
    },
  ]);
  return result!.rowsAffected;
}

export async function queueDepth(db: Db): Promise<{ queued: number; running: number; failed: number }> {
  const rows = await db.all<{ status: string; n: number }>(sql`SELECT status, count(*) AS n FROM ${jobs}
    WHERE status IN ('queued', 'running', 'failed') GROUP BY status`);
  const by = Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
  return { queued: by.queued ?? 0, running: by.running ?? 0, failed: by.failed ?? 0 };
}
