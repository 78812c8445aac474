// Writes the pages of a batch of sources in a few transactions of WRITE_CHUNK sources (each source's
// statements guarded by its revision, as a single write is), then links the new pages with the brain. A
// transaction that fails (a slug taken meanwhile by another replica, say) is retried source by source, so one
// bad source fails alone.
import type { RootDb } from "../../db/client";
import type { Logger } from "../../lib/log";
import type { Source } from "../../db/schema";
import type { InwardLink } from "../../links/inward-links";
import { applyInwardLinks, titleIndexFor, writeManyStatements, writeStatements, type JobClaim, type WrittenSource } from "./write-pages";
import { runBatch } from "../../db/plain";
import { writeEventStatements } from "./events";
import { nextTurn, timeSlicer } from "../../lib/time-slice";

/** findLateLinks, wherever it runs (on an extraction thread, or here): pages of other sources that name the titles of a source's committed pages. */
export type FindInwardLinks = (brainId: string, sourceId: string, pages: { slug: string; title: string; markdown: string }[], outwardSeen?: number) => Promise<InwardLink[]>;

export interface PreparedWrite {
  source: Source;
  written: WrittenSource;
  /** The last page id the source's outward links looked at (none for a note): later titles are linked after the write. */
  outwardSeen?: number;
  /** The job's claim the write is fenced by (none: only the source's revision guards it). */
  claim?: JobClaim;
}

/**
 * Sources per write transaction. The embedded driver runs a batch in one synchronous go, so HTTP requests wait
 * for it: a batch of 64 sources held the event loop for 200+ ms (ask p99 ~690 ms during an import); a turn of
 * the event loop between transactions of 16 lets requests in.
 */
const WRITE_CHUNK = 16;

/**
 * Returns, per write in order, undefined when it is stored (or was stale), else the error for its job. Once
 * the pages are committed, `findInward` looks for the pages naming their titles for every stored source at
 * once (an extraction thread works through them while this thread applies the ones found, in order).
 */
export async function writeBatch(db: RootDb, writes: PreparedWrite[], log: Logger, findInward: FindInwardLinks): Promise<(unknown | undefined)[]> {
  if (writes.length === 0) return [];
  const errors: (unknown | undefined)[] = writes.map(() => undefined);
  const wrote: boolean[] = writes.map(() => false);
  for (let from = 0; from < writes.length; from += WRITE_CHUNK) {
    if (from > 0) await nextTurn();
    const indexes = writes.slice(from, from + WRITE_CHUNK).map((_, k) => from + k);
    await writeChunk(db, writes, indexes, errors, wrote, log);
  }
  titleIndexFor(db).touch();
  // The pages are stored and ready; a missed inward link is not worth failing the source over.
  const missed = (w: PreparedWrite) => (e: unknown) => {
    log.warn("linking new pages into the brain failed", { source: w.source.id, error: (e as Error).message });
    return [];
  };
  const found = writes.map((w, i) => (wrote[i] ? findInward(w.source.brainId, w.source.id, w.written.pages, w.outwardSeen).catch(missed(w)) : null));
  const slice = timeSlicer(); // HTTP requests in between sources
  for (const [i, w] of writes.entries()) {
    if (!found[i]) continue;
    await slice();
    await applyInwardLinks(db, w.source.brainId, await found[i]).catch(missed(w));
  }
  return errors;
}

/** One transaction for the sources at `indexes`; when it fails, each source alone, so one bad source fails alone. */
async function writeChunk(db: RootDb, writes: PreparedWrite[], indexes: number[], errors: (unknown | undefined)[], wrote: boolean[], log: Logger) {
  const { statements, readyAt } = writeManyStatements(indexes.map((i) => writes[i]!));
  try {
    const results = await runBatch(db, [...statements, ...(await writeEventStatements(db, indexes.map((i) => writes[i]!)))]);
    readyAt.forEach((at, k) => {
      wrote[indexes[k]!] = results[at]!.rowsAffected > 0;
    });
  } catch (batchError) {
    if (indexes.length > 1) log.warn("batch write failed; writing its sources one by one", { sources: indexes.length, error: (batchError as Error).message });
    for (const i of indexes) {
      const w = writes[i]!;
      try {
        const own = writeStatements(w.source, w.written, w.claim);
        const results = await runBatch(db, [...own, ...(await writeEventStatements(db, [w]))]);
        wrote[i] = results[own.length - 1]!.rowsAffected > 0;
      } catch (e) {
        errors[i] = e;
      }
    }
  }
}
