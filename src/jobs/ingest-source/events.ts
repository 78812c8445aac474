// The events a source's write announces (queue/events.ts), in the same transaction as the write: the source
// is ready, and each of its pages has new text. Guarded by the source being ready at the revision written,
// so a stale write (the source changed or went meanwhile) announces nothing.
import type { RootDb } from "../../db/client";
import { stmt, type Statement } from "../../db/plain";
import { eventStatements, type AppEvent } from "../../queue/events";
import type { PreparedWrite } from "./write-batch";

const READY_AT_REVISION = "EXISTS (SELECT 1 FROM sources WHERE id = ? AND revision = ? AND status = 'ready')";

export function writeEventsOf({ source, written }: PreparedWrite): AppEvent[] {
  const guard = stmt(READY_AT_REVISION, source.id, source.revision);
  const reason = source.pageCount === 0 ? "ingest" : "reprocess";
  return [
    {
      type: "source.ready",
      brainId: source.brainId,
      data: { sourceId: source.id, type: source.type, title: written.title, externalId: source.externalId ?? null, pageCount: written.pages.length, revision: source.revision },
      guard,
      key: `source.ready:${source.id}:${source.revision}`,
    },
    ...written.pages.map(
      (p): AppEvent => ({ type: "page.changed", brainId: source.brainId, data: { slug: p.slug, title: p.title, sourceId: source.id, reason }, guard, key: `page.changed:${source.id}:${source.revision}:${p.slug}` }),
    ),
  ];
}

/** The statements announcing these writes; [] (no query) when no hook wants them. */
export function writeEventStatements(db: RootDb, writes: PreparedWrite[]): Promise<Statement[]> {
  return eventStatements(db, writes.flatMap(writeEventsOf));
}
