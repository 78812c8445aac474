// Runs of a connector: started by hand or by the scheduler, at most one queued or running per connector
// (a partial unique index decides, across replicas), each carried out by one durable job.
import { desc, eq } from "drizzle-orm";
import type { RootDb as Db } from "../../db/client";
import { connectorRuns, connectors, type ConnectorRun } from "../../db/schema";
import { runBatch, stmt } from "../../db/plain";
import { AppError } from "../../lib/errors";
import { newTimeOrderedId } from "../../lib/secrets";
import { enqueueStatement } from "../../queue";
import { eventStatements } from "../../queue/events";
import { CONNECTOR_SYNC_JOB } from "../../queue/kinds";

/** A run's job is retried this often when the process dies under it (it resumes where it was each time). */
export const RUN_JOB_ATTEMPTS = 10;

export interface RunView {
  id: string;
  trigger: ConnectorRun["trigger"];
  status: ConnectorRun["status"];
  phase: ConnectorRun["phase"];
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  counts: { added: number; updated: number; unchanged: number; removed: number; failed: number };
  requests: number;
  errors: string[];
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function runView(r: ConnectorRun): RunView {
  return {
    id: r.id,
    trigger: r.trigger,
    status: r.status,
    phase: r.phase,
    createdAt: new Date(r.createdAt).toISOString(),
    startedAt: iso(r.startedAt),
    finishedAt: iso(r.finishedAt),
    counts: { added: r.added, updated: r.updated, unchanged: r.unchanged, removed: r.removed, failed: r.failed },
    requests: r.requests,
    errors: JSON.parse(r.errors) as string[],
  };
}

/** The statements that start a run (and its job) unless one is already queued or running. */
export function startRunStatements(connectorId: string, trigger: ConnectorRun["trigger"], guard = "1") {
  const id = newTimeOrderedId("run");
  const now = Date.now();
  return {
    id,
    statements: [
      stmt(
        `INSERT OR IGNORE INTO connector_runs (id, connector_id, trigger, status, created_at)
         SELECT ?, ?, ?, 'queued', ? WHERE EXISTS (SELECT 1 FROM connectors WHERE id = ? AND deleting = 0) AND ${guard}`,
        id, connectorId, trigger, now, connectorId,
      ),
      enqueueStatement({ kind: CONNECTOR_SYNC_JOB, subjectId: connectorId, payload: { runId: id }, maxAttempts: RUN_JOB_ATTEMPTS }, stmt("changes() > 0")),
    ],
  };
}

/** Starts a run now; 409 when one is already queued or running (never two at once). */
export async function startRun(db: Db, connectorId: string, trigger: ConnectorRun["trigger"]): Promise<ConnectorRun> {
  const { id, statements } = startRunStatements(connectorId, trigger);
  const [inserted] = await runBatch(db, statements);
  if (inserted!.rowsAffected === 0) {
    const active = await activeRun(db, connectorId);
    throw new AppError("conflict", "This connector is already syncing: wait for its run to finish", { runId: active?.id ?? null });
  }
  return (await db.query.connectorRuns.findFirst({ where: eq(connectorRuns.id, id) }))!;
}

export async function activeRun(db: Db, connectorId: string): Promise<ConnectorRun | undefined> {
  const runs = await db.query.connectorRuns.findMany({ where: eq(connectorRuns.connectorId, connectorId), orderBy: [desc(connectorRuns.createdAt)], limit: 5 });
  return runs.find((r) => r.status === "queued" || r.status === "running");
}

export async function listRuns(db: Db, connectorId: string, limit = 50): Promise<ConnectorRun[]> {
  return db.query.connectorRuns.findMany({
    where: eq(connectorRuns.connectorId, connectorId),
    orderBy: [desc(connectorRuns.createdAt), desc(connectorRuns.id)],
    limit,
  });
}

export async function lastRun(db: Db, connectorId: string): Promise<ConnectorRun | undefined> {
  return (await listRuns(db, connectorId, 1))[0];
}

/**
 * Ends a run: its final status, and one plain-words error when the run as a whole failed. The
 * `connector.run.finished` event is written in the same batch, once per run (its key), for the hooks that take it.
 */
export async function finishRun(db: Db, runId: string, status: "succeeded" | "failed" | "cancelled", error?: string): Promise<void> {
  const finishedAt = Date.now();
  await runBatch(db, [
    stmt(
      `UPDATE connector_runs SET status = ?2, phase = 'done', finished_at = ?3, started_at = coalesce(started_at, ?3),
         errors = CASE WHEN ?4 IS NOT NULL THEN json_insert(errors, '$[#]', ?4) ELSE errors END
       WHERE id = ?1 AND status IN ('queued', 'running')`,
      runId, status, finishedAt, error ?? null,
    ),
    ...(await finishedEvent(db, runId, status, finishedAt, error)),
  ]);
}

async function finishedEvent(db: Db, runId: string, status: string, finishedAt: number, error?: string) {
  const run = await db.query.connectorRuns.findFirst({ where: eq(connectorRuns.id, runId) });
  const connector = run && (await db.query.connectors.findFirst({ where: eq(connectors.id, run.connectorId) }));
  if (!run || !connector) return [];
  const { counts, errors } = runView(run);
  return eventStatements(db, [
    {
      type: "connector.run.finished",
      brainId: connector.brainId,
      data: { connectorId: connector.id, kind: connector.kind, runId, status, counts, errors: [...errors, ...(error ? [error] : [])].slice(0, 5) },
      // Only the batch that finished the run announces it (a second finish changes nothing).
      guard: stmt("EXISTS (SELECT 1 FROM connector_runs WHERE id = ? AND status = ? AND finished_at = ?)", runId, status, finishedAt),
      key: `connector.run.finished:${runId}`,
    },
  ]);
}
