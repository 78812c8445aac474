// The sources a connector makes: upserted by externalId (`<connector id>:<item key>`), tagged with the
// connector, each write guarded by the connector still existing, so a run that outlives a delete writes
// nothing more. The ingest job does the rest; an owner-edited page is never overwritten (sourceChanged).
import type { RootDb as Db } from "../../db/client";
import { queryRows, runBatch, stmt, type Statement } from "../../db/plain";
import { enqueueStatement } from "../../queue";
import { INGEST_JOB } from "../../queue/kinds";
import { newTimeOrderedId } from "../../lib/secrets";
import type { ItemSource } from "./kinds/types";

export class ConnectorGoneError extends Error {
  constructor() {
    super("the connector was deleted while it ran");
  }
}

export interface WriteDeps {
  db: Db;
  maxAttempts: number;
  wake(): void;
}

const LIVE = "EXISTS (SELECT 1 FROM connectors WHERE id = ? AND deleting = 0)";

export const externalIdOf = (connectorId: string, key: string) => `${connectorId}:${key}`;

function fieldsOf(src: ItemSource) {
  return src.type === "text"
    ? { title: src.title.trim() || src.url || "Untitled", url: src.url ?? null, content: src.content }
    : { title: src.title?.trim() || src.url, url: src.url, content: null };
}

/**
 * Adds or updates an item's source; what happened to it. Throws ConnectorGoneError once the connector is being
 * deleted. `whenAdded` are statements written in the same batch as a new source, each only if the one before
 * it changed a row (the item marked done and counted as added): a server killed after the insert cannot leave
 * a source the run later counts as unchanged.
 */
export async function upsertItemSource(
  deps: WriteDeps,
  c: { id: string; brainId: string },
  key: string,
  src: ItemSource,
  whenAdded: (sourceId: string) => Statement[] = () => [],
): Promise<{ sourceId: string; change: "added" | "updated" | "unchanged" }> {
  const { db } = deps;
  const f = fieldsOf(src);
  const id = newTimeOrderedId("src");
  const externalId = externalIdOf(c.id, key);
  const job = { kind: INGEST_JOB, maxAttempts: deps.maxAttempts };
  const [, inserted] = await runBatch(db, [
    stmt(
      `INSERT INTO sources (id, brain_id, type, title, url, content, external_id, connector_id)
       SELECT ?, ?, ?, ?, ?, ?, ?, ? WHERE ${LIVE} ON CONFLICT (brain_id, external_id) DO NOTHING`,
      id, c.brainId, src.type, f.title, f.url, f.content, externalId, c.id, c.id,
    ),
    enqueueStatement({ ...job, subjectId: id }, stmt("changes() > 0")),
    ...whenAdded(id),
  ]);
  if (inserted!.rowsAffected > 0) {
    deps.wake();
    return { sourceId: id, change: "added" };
  }
  const [existing] = await queryRows<{ id: string; type: string }>(db, "SELECT id, type FROM sources WHERE brain_id = ? AND external_id = ?", c.brainId, externalId);
  if (!existing) throw new ConnectorGoneError();
  // A link's content is its extracted text once processed: only its address and title say it changed.
  const differs = src.type === "link" ? "(url IS NOT ? OR title IS NOT ?)" : "(url IS NOT ? OR title IS NOT ? OR content IS NOT ?)";
  const differArgs = src.type === "link" ? [f.url, f.title] : [f.url, f.title, f.content];
  const [, requeued] = await runBatch(db, [
    stmt(
      `UPDATE sources SET title = ?, url = ?, content = coalesce(?, content), connector_id = ?, revision = revision + 1,
         status = 'pending', error = NULL, updated_at = ? WHERE id = ? AND ${differs} AND ${LIVE}`,
      f.title, f.url, f.content, c.id, Date.now(), existing.id, ...differArgs, c.id,
    ),
    enqueueStatement({ ...job, subjectId: existing.id }, stmt("changes() > 0")),
  ]);
  if (requeued!.rowsAffected > 0) {
    deps.wake();
    return { sourceId: existing.id, change: "updated" };
  }
  return { sourceId: existing.id, change: "unchanged" };
}

/** Processes an existing source again (its origin changed): the links kind. */
export async function reprocessItemSource(deps: WriteDeps, connectorId: string, sourceId: string): Promise<boolean> {
  const [, job] = await runBatch(deps.db, [
    stmt(
      `UPDATE sources SET revision = revision + 1, status = 'pending', error = NULL, updated_at = ? WHERE id = ? AND ${LIVE}`,
      Date.now(), sourceId, connectorId,
    ),
    enqueueStatement({ kind: INGEST_JOB, subjectId: sourceId, maxAttempts: deps.maxAttempts }, stmt("changes() > 0")),
  ]);
  if (job!.rowsAffected > 0) deps.wake();
  return job!.rowsAffected > 0;
}
