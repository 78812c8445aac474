// What an attempt leaves behind, in one transaction: its row in the delivery log, the delivery's state, and
// the hook's run of failures (a success ends it; a run as long as the disable window turns the hook off).
import type { RootDb } from "../../db/client";
import { runBatch, stmt } from "../../db/plain";
import type { Outcome } from "./send";

/** How long settled deliveries stay in a hook's log. */
export const DELIVERY_LOG_RETENTION_MS = 30 * 86_400_000;

export interface Settled {
  /** Final: delivered, or given up. */
  status: "pending" | "delivered" | "failed";
  nextAttemptAt: number | null;
  /** The hook was turned off by this attempt. */
  disabledHook: boolean;
}

export interface AttemptRecord {
  deliveryId: string;
  hookId: string;
  attempt: number;
  outcome: Outcome;
  startedAt: number;
  finishedAt: number;
  status: Settled["status"];
  /** The delivery's own final error (e.g. given up after the window), else the attempt's. */
  error: string | null;
  nextAttemptAt: number | null;
  disableAfterMs: number;
  /** When the delivery was created: a failing streak runs from the first failed delivery's creation, the
   * same clock its retries give up by, so a delivery given up after the window always turns the hook off. */
  createdAt: number;
}

export function disabledReasonOf(disableAfterMs: number, lastError: string): string {
  return `Turned off by the server: every delivery failed for ${describeSpan(disableAfterMs)}. Last error: ${lastError}`;
}

export async function recordAttempt(db: RootDb, r: AttemptRecord): Promise<boolean> {
  const { outcome } = r;
  const statements = [
    stmt(
      "INSERT INTO webhook_attempts (delivery_id, attempt, status_code, error, duration_ms, at) VALUES (?, ?, ?, ?, ?, ?)",
      r.deliveryId, r.attempt, outcome.statusCode, outcome.error, r.finishedAt - r.startedAt, r.startedAt,
    ),
    stmt(
      `UPDATE webhook_deliveries SET status = ?, attempts = ?, status_code = ?, error = ?, last_attempt_at = ?, next_attempt_at = ?,
        delivered_at = ? WHERE id = ?`,
      r.status, r.attempt, outcome.statusCode, r.error, r.startedAt, r.nextAttemptAt, outcome.delivered ? r.finishedAt : null, r.deliveryId,
    ),
  ];
  const disableAt = statements.length + 1; // the hook's disable statement, when the attempt failed
  if (outcome.delivered) {
    statements.push(stmt("UPDATE webhooks SET failing_since = NULL WHERE id = ? AND failing_since IS NOT NULL", r.hookId));
  } else {
    statements.push(
      stmt("UPDATE webhooks SET failing_since = ? WHERE id = ? AND failing_since IS NULL", r.createdAt, r.hookId),
      stmt(
        `UPDATE webhooks SET enabled = 0, disabled_reason = ?, updated_at = ? WHERE id = ? AND enabled = 1 AND failing_since IS NOT NULL AND ? - failing_since >= ?`,
        disabledReasonOf(r.disableAfterMs, outcome.error ?? "unknown"), r.finishedAt, r.hookId, r.finishedAt, r.disableAfterMs,
      ),
    );
  }
  // Settled deliveries older than the log keeps are forgotten as new ones settle (one index range a time).
  if (r.status !== "pending")
    statements.push(stmt("DELETE FROM webhook_deliveries WHERE hook_id = ? AND created_at < ? AND status != 'pending'", r.hookId, r.finishedAt - DELIVERY_LOG_RETENTION_MS));
  const results = await runBatch(db, statements);
  return !outcome.delivered && results[disableAt]!.rowsAffected > 0;
}

/** A delivery given up without an attempt (its hook was turned off, or it crashed too often). */
export async function failWithoutAttempt(db: RootDb, deliveryId: string, error: string): Promise<void> {
  await runBatch(db, [stmt("UPDATE webhook_deliveries SET status = 'failed', error = ?, next_attempt_at = NULL WHERE id = ? AND status = 'pending'", error, deliveryId)]);
}

function describeSpan(ms: number): string {
  if (ms % 86_400_000 === 0) return ms === 86_400_000 ? "a day" : `${ms / 86_400_000} days`;
  if (ms % 3_600_000 === 0) return ms === 3_600_000 ? "an hour" : `${ms / 3_600_000} hours`;
  if (ms >= 60_000) return `${Math.round(ms / 60_000)} minutes`;
  return ms % 1000 === 0 ? `${ms / 1000} seconds` : `${ms} ms`;
}
