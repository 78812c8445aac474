// A run's frontier and progress, in connector_items and connector_runs: every item a run must handle is a
// row queued for it; handling one is one batch (the item's new state and the run's counts together), so a
// run that dies resumes with what is left and counts nothing twice.
import type { RootDb as Db } from "../../db/client";
import { queryRows, runBatch, stmt, type Statement } from "../../db/plain";
import type { ItemRef } from "./kinds/types";

/** Errors kept per run: the first ones say what went wrong; thousands more would say nothing new. */
export const MAX_RUN_ERRORS = 20;

export interface PendingItem {
  itemKey: string;
  ref: ItemRef;
  sourceId: string | null;
  version: string | null;
}

export type Counter = "added" | "updated" | "unchanged" | "removed" | "failed";

/** Queues items for a run (up to `max` items in the run): new ones inserted, known ones re-queued; duplicates ignored. */
export function queueItemsStatements(connectorId: string, runId: string, refs: ItemRef[], max: number): Statement[] {
  return refs.map((ref) =>
    stmt(
      `INSERT INTO connector_items (connector_id, item_key, ref, queued_run)
       SELECT ?1, ?2, ?3, ?4 WHERE (SELECT count(*) FROM connector_items WHERE connector_id = ?1 AND queued_run = ?4) < ?5
       ON CONFLICT (connector_id, item_key) DO UPDATE SET ref = excluded.ref, queued_run = excluded.queued_run
       WHERE connector_items.queued_run IS NOT excluded.queued_run`,
      connectorId, ref.key, JSON.stringify(ref), runId, max,
    ),
  );
}

export async function queueItems(db: Db, connectorId: string, runId: string, refs: ItemRef[], max: number): Promise<void> {
  for (let i = 0; i < refs.length; i += 500) await runBatch(db, queueItemsStatements(connectorId, runId, refs.slice(i, i + 500), max));
}

/** Items queued for the run and not yet handled, leaving out those in flight. */
export async function pendingItems(db: Db, connectorId: string, runId: string, limit: number, skip: ReadonlySet<string>): Promise<PendingItem[]> {
  const rows = await queryRows<{ item_key: string; ref: string; source_id: string | null; version: string | null }>(
    db,
    "SELECT item_key, ref, source_id, version FROM connector_items WHERE connector_id = ? AND queued_run = ? AND done_run IS NOT ? LIMIT ?",
    connectorId, runId, runId, limit + skip.size,
  );
  return rows
    .filter((r) => !skip.has(r.item_key))
    .slice(0, limit)
    .map((r) => ({ itemKey: r.item_key, ref: JSON.parse(r.ref) as ItemRef, sourceId: r.source_id, version: r.version }));
}

/**
 * The item handled by the run: its new state; `seen` false lets the prune phase remove it. `onlyIfChanged`:
 * only when the statement before it changed a row (the source it records was just inserted, in one batch).
 */
export function itemDoneStatement(
  connectorId: string, runId: string, key: string, to: { seen: boolean; sourceId?: string | null; version?: string | null }, onlyIfChanged = false,
): Statement {
  return stmt(
    `UPDATE connector_items SET done_run = ?3, seen_run = CASE WHEN ?4 THEN ?3 ELSE seen_run END,
       source_id = CASE WHEN ?5 THEN ?6 ELSE source_id END, version = CASE WHEN ?7 THEN ?8 ELSE version END
     WHERE connector_id = ?1 AND item_key = ?2 AND done_run IS NOT ?3${onlyIfChanged ? " AND changes() > 0" : ""}`,
    connectorId, key, runId, to.seen ? 1 : 0, to.sourceId !== undefined ? 1 : 0, to.sourceId ?? null, to.version !== undefined ? 1 : 0, to.version ?? null,
  );
}

/**
 * Adds to a run's counts and requests, and keeps its first errors. `onlyIfChanged`: only when the statement
 * before it changed a row, so an item handled twice (a worker that lost its lease without knowing yet) counts once.
 */
export function countStatement(runId: string, counter: Counter | null, requests: number, error?: string, onlyIfChanged = false): Statement {
  const column = counter ? `${counter} = ${counter} + 1,` : "";
  return stmt(
    `UPDATE connector_runs SET ${column} requests = requests + ?2,
       errors = CASE WHEN ?3 IS NOT NULL AND json_array_length(errors) < ${MAX_RUN_ERRORS} THEN json_insert(errors, '$[#]', ?3) ELSE errors END
     WHERE id = ?1${onlyIfChanged ? " AND changes() > 0" : ""}`,
    runId, requests, error ?? null,
  );
}

/** Items the run did not find present (prune candidates), a page at a time. */
export async function unseenItems(db: Db, connectorId: string, runId: string, limit: number) {
  return queryRows<{ item_key: string; source_id: string | null }>(
    db,
    "SELECT item_key, source_id FROM connector_items WHERE connector_id = ? AND seen_run IS NOT ? LIMIT ?",
    connectorId, runId, limit,
  );
}

export const forgetItemStatement = (connectorId: string, key: string) =>
  stmt("DELETE FROM connector_items WHERE connector_id = ? AND item_key = ?", connectorId, key);

/** Queues every item the connector found present before (up to `max`): a crawl checks each again. */
export async function revisitKnown(db: Db, connectorId: string, runId: string, max: number): Promise<void> {
  await runBatch(db, [
    stmt(
      `UPDATE connector_items SET queued_run = ?2 WHERE connector_id = ?1 AND item_key IN
         (SELECT item_key FROM connector_items WHERE connector_id = ?1 AND seen_run IS NOT NULL LIMIT ?3)`,
      connectorId, runId, max,
    ),
  ]);
}
