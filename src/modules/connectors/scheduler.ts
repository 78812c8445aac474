// Starts the runs that are due. Every replica may call it: each connector's next time is claimed by one
// conditional update, and the run it starts obeys the one-active-run rule (runs.ts), so a run is never
// started twice; a connector still running when its time comes skips that turn.
import type { RootDb as Db } from "../../db/client";
import { queryRows, runBatch, stmt } from "../../db/plain";
import { startRunStatements } from "./runs";
import { nextRunAfter, parseSchedule } from "./schedule";

const DUE_PER_TICK = 50;

/** Starts the due runs; how many it started. */
export async function startDueRuns(db: Db, now = Date.now()): Promise<number> {
  const due = await queryRows<{ id: string; schedule: string; next_run_at: number }>(
    db,
    "SELECT id, schedule, next_run_at FROM connectors WHERE next_run_at IS NOT NULL AND next_run_at <= ? AND paused = 0 AND deleting = 0 ORDER BY next_run_at LIMIT ?",
    now, DUE_PER_TICK,
  );
  let started = 0;
  for (const c of due) {
    let next: number | null = null;
    try {
      next = nextRunAfter(parseSchedule(c.schedule), now);
    } catch {
      next = null; // a schedule that no longer parses stops scheduling rather than looping
    }
    const { statements } = startRunStatements(c.id, "schedule", "changes() > 0");
    const [claimed, inserted] = await runBatch(db, [
      stmt("UPDATE connectors SET next_run_at = ? WHERE id = ? AND next_run_at = ?", next, c.id, c.next_run_at),
      ...statements,
    ]);
    if (claimed!.rowsAffected > 0 && inserted!.rowsAffected > 0) started++;
  }
  return started;
}
