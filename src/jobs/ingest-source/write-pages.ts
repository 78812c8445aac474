// Writes a source's pages, vectors and ready state in ONE batch, every statement guarded by the source
// revision the job read and by the job's claim: a job for an older revision (or a deleted source) writes
// nothing, a run whose job was claimed again meanwhile writes nothing, and a job that runs again replaces its
// own pages instead of adding more. Then links the new pages with the brain.
import { sql } from "drizzle-orm";
import type { RootDb } from "../../db/client";
import { pages } from "../../db/schema";
import { conceptWriteStatements, pageLinkStatements, type ResolvedConcept } from "../../concepts";
import { searchTextOf } from "../../retrieval/search-text";
import { TitleIndex } from "../../links/title-index";
import { readRowsOf } from "../../db/read-rows";
import type { InwardLink } from "../../links/inward-links";
import { linksAddedStatements, runBatch, type Statement } from "../../links/page-links";
import { queryRows, stmt } from "../../db/plain";
import { slugify, uniqueSlug, type SynthesizedPage } from "../../ingest";
import { addTitleLinks, linkTargetsOf } from "../../links/wiki-links";

export interface PageToWrite extends SynthesizedPage {
  slug: string;
  vector?: Float32Array;
  /** The slug is a concept page's (unedited) that this page replaces: see allocateSlugs. */
  replacesConcept?: boolean;
}

/** Slugs given to sources not yet written (a Set, or a view over the slugs every batch in flight holds). */
export interface SlugReservations {
  has(slug: string): boolean;
  add(slug: string): void;
}

/**
 * Slugs unique in the brain, ignoring this source's own unedited pages (they are about to be replaced), and
 * not in `reserved` (slugs given to sources of this or another batch in flight, not yet written). One index range read per draft
 * (`slug` and `slug-…`), never a scan of the brain (reading every slug cost 12 ms per source at 3k pages). A
 * draft whose slug is held by this source's own edited page is dropped: the owner's page stands in for it
 * (marked `sourceChanged`). A draft titled like an unedited concept page takes its slug, and the write removes
 * that page: a source about the concept is its page, as when the source came first (resolve.ts: no concept
 * page is made for a source page's slug), so the wiki does not depend on the order sources arrive in.
 */
export async function allocateSlugs(
  db: RootDb,
  brainId: string,
  sourceId: string,
  drafts: SynthesizedPage[],
  reserved: SlugReservations = new Set<string>(),
  /** False for a source never written (`pageCount` 0, as the write takes it, SourceRef): it has no pages to keep slugs of. */
  mayHavePages = true,
): Promise<PageToWrite[]> {
  const taken = new Set<string>();
  const ownEdited = new Set<string>();
  /** Slugs of unedited concept pages (only these hold them): a draft of exactly that slug may take one. */
  const concepts = new Set<string>();
  // Reprocessing: a page whose title is unchanged keeps its slug, so links to it keep working even when the
  // slug rule or the brain's other pages would now give another ("page-2" from before non-Latin slugs,
  // "harbour-2" once "harbour" is gone). One index read by source; nothing for a new source.
  const previous = mayHavePages
    ? await queryRows<{ slug: string; title: string }>(db, "SELECT slug, title FROM pages WHERE source_id = ? AND edited = 0 ORDER BY position", sourceId)
    : [];
  const keptByTitle = new Map<string, string[]>();
  for (const p of previous) keptByTitle.set(p.title, [...(keptByTitle.get(p.title) ?? []), p.slug]);
  for (const base of new Set(drafts.map((d) => slugify(d.title)))) {
    // [base, base + ".") holds exactly `base` and `base-…` ("." follows "-"): one range of the index.
    const rows = await queryRows<{ slug: string; own: number; concept: number }>(
      db,
      "SELECT slug, (source_id IS ?1 AND edited = 1) AS own, (kind = 'concept' AND edited = 0) AS concept FROM pages WHERE brain_id = ?2 AND slug >= ?3 AND slug < ?4 AND (source_id IS NOT ?1 OR edited = 1)",
      sourceId,
      brainId,
      base,
      `${base}.`,
    );
    for (const r of rows) {
      (r.own ? ownEdited : taken).add(r.slug);
      if (r.concept) concepts.add(r.slug);
    }
  }
  // Kept slugs first, so no new slug of this source can take one of them.
  const keptSlugs = drafts.map((draft) => {
    const kept = keptByTitle.get(draft.title)?.shift();
    if (kept === undefined || reserved.has(kept)) return undefined;
    taken.add(kept);
    reserved.add(kept);
    return kept;
  });
  const out: PageToWrite[] = [];
  for (const [i, draft] of drafts.entries()) {
    if (keptSlugs[i] !== undefined) {
      out.push({ ...draft, slug: keptSlugs[i] });
      continue;
    }
    const base = slugify(draft.title);
    if (ownEdited.has(base)) continue;
    if (concepts.has(base) && !reserved.has(base)) {
      concepts.delete(base);
      reserved.add(base);
      out.push({ ...draft, slug: base, replacesConcept: true });
      continue;
    }
    const slug = uniqueSlug(base, (s) => taken.has(s) || ownEdited.has(s) || reserved.has(s));
    taken.add(slug);
    reserved.add(slug);
    out.push({ ...draft, slug });
  }
  return out;
}

const titleIndexes = new WeakMap<RootDb, TitleIndex>();
/** The main connection's title index: one per database handle (a process normally has one). */
export function titleIndexFor(db: RootDb): TitleIndex {
  let index = titleIndexes.get(db);
  if (!index) titleIndexes.set(db, (index = new TitleIndex(readRowsOf(db))));
  return index;
}

export interface WrittenSource {
  title: string;
  content: string | null;
  pages: PageToWrite[];
  model?: string;
  /** The concepts this source names (wiki): their mentions, aliases and dirty marks go in the same write. */
  concepts?: ResolvedConcept[];
}

/**
 * `pageCount` as the job read it: 0 for a source never written (no pages, mention or lone rows to replace:
 * their deletes are left out, ~6 statements a source); unknown, the write replaces whatever is there.
 */
type SourceRef = { id: string; brainId: string; revision: number; type: string; pageCount?: number };

/**
 * The claim a job's write is fenced by: its job still at the attempt that read the source. A job claimed again
 * meanwhile (its lease ran out: another replica took it for dead) counts one more attempt, and the first
 * run's late write then writes nothing; without the fence both runs wrote the source's page.
 */
export interface JobClaim {
  jobId: number;
  attempts: number;
}

export async function writePages(db: RootDb, source: SourceRef, written: WrittenSource): Promise<boolean> {
  const results = await runBatch(db, writeStatements(source, written));
  return results.at(-1)!.rowsAffected > 0;
}

/**
 * An unedited concept page holding a slug of the pages written goes, in the write's transaction: a source
 * about the concept is its page (allocateSlugs gives such a draft the concept's slug, `replacesConcept`).
 * A concept page can also appear after the slug was chosen, made by a wiki refresh that cannot see a source
 * still in flight (the SQuAD paragraphs titled "Rhine" and "Normans" whose words were also concepts of
 * earlier paragraphs): taking it over here makes the slug's check and its insert one atomic step, where the
 * insert used to fail on the unique (brain, slug) index and the job waited for a retry. An edited concept
 * page stays: the insert then fails and the retried job allocates the next slug.
 */
function conceptsTakenStatement(writes: { source: SourceRef; written: WrittenSource; claim?: JobClaim }[]): Statement | null {
  const slugs = writes.flatMap(({ source, written, claim }) => written.pages.map((p) => [source.brainId, p.slug, source.id, source.revision, claim?.jobId ?? null, claim?.attempts ?? null]));
  if (slugs.length === 0) return null;
  return stmt(
    `DELETE FROM pages WHERE kind = 'concept' AND edited = 0 AND id IN (
      SELECT p.id FROM json_each(?) j CROSS JOIN pages p ON p.brain_id = j.value ->> 0 AND p.slug = j.value ->> 1
      WHERE ${currentRow("j.value ->> 2", "j.value ->> 3", "j.value ->> 4", "j.value ->> 5")})`,
    JSON.stringify(slugs),
  );
}

/** The guard of every statement of a source's write: the source is still at the revision the job read. */
const CURRENT = "EXISTS (SELECT 1 FROM sources WHERE id = ? AND revision = ?)";
/** And the job is still at the attempt that read it (JobClaim). */
const CLAIMED = "EXISTS (SELECT 1 FROM jobs WHERE id = ? AND attempts = ?)";

const currentOf = (source: SourceRef, claim?: JobClaim) =>
  claim ? stmt(`${CURRENT} AND ${CLAIMED}`, source.id, source.revision, claim.jobId, claim.attempts) : stmt(CURRENT, source.id, source.revision);

/** The same guard for a row of a JSON array holding the source id, its revision, then the claim's job id and attempts (null: none). */
const currentRow = (id: string, revision: string, jobId: string, attempts: string) =>
  `EXISTS (SELECT 1 FROM sources WHERE id = ${id} AND revision = ${revision})
    AND (${jobId} IS NULL OR EXISTS (SELECT 1 FROM jobs WHERE id = ${jobId} AND attempts = ${attempts}))`;
/** A page of the source written now, by slug (its edited namesake is not it). */
const OWN_PAGE = "SELECT id FROM pages WHERE source_id = ? AND slug = ? AND edited = 0";

/** The statements of one source's write; the last one marks it ready (rowsAffected 0: it was stale). */
export function writeStatements(source: SourceRef, written: WrittenSource, claim?: JobClaim): Statement[] {
  return writeManyStatements([{ source, written, claim }]).statements;
}

/**
 * The statements of several sources' writes, for one transaction; `readyAt[k]` is the index of the statement
 * that marks source k ready (rowsAffected 0: it was stale). Every source's pages go in ONE insert, after every
 * source's old pages went: the full-text index writes what it holds pending at the start of any statement
 * that may need undoing (a savepoint), so a page inserted between such statements became a segment of its
 * own (~130 µs a source, and more segments to merge as the brain grew); one insert makes one segment.
 */
export function writeManyStatements(writes: { source: SourceRef; written: WrittenSource; claim?: JobClaim }[]): { statements: Statement[]; readyAt: number[] } {
  const statements = writes.flatMap(({ source, claim }) => {
    if (source.pageCount === 0) return [];
    const current = currentOf(source, claim);
    return [
      // Pages the owner edited stay as they are; they only learn that their source changed.
      stmt(`DELETE FROM pages WHERE source_id = ? AND edited = 0 AND ${current.sql}`, source.id, ...current.args),
      stmt(`UPDATE pages SET source_changed = 1 WHERE source_id = ? AND edited = 1 AND ${current.sql}`, source.id, ...current.args),
    ];
  });
  const conceptsTaken = conceptsTakenStatement(writes);
  if (conceptsTaken) statements.push(conceptsTaken);
  // A slug taken since it was allocated fails the write (unique index): the batch is retried source by source.
  const rows = writes.flatMap(({ source, written, claim }) =>
    written.pages.map((p, position) => [source.brainId, source.id, source.type === "note" ? "note" : "source", p.slug, p.title, p.markdown, searchTextOf(p.markdown), position, source.revision, claim?.jobId ?? null, claim?.attempts ?? null]),
  );
  statements.push(
    stmt(
      `INSERT INTO pages (brain_id, source_id, kind, slug, title, markdown, search_text, position)
      SELECT j.value ->> 0, j.value ->> 1, j.value ->> 2, j.value ->> 3, j.value ->> 4, j.value ->> 5, j.value ->> 6, j.value ->> 7
      FROM json_each(?) j WHERE ${currentRow("j.value ->> 1", "j.value ->> 8", "j.value ->> 9", "j.value ->> 10")}`,
      JSON.stringify(rows),
    ),
  );
  const readyAt: number[] = [];
  for (const { source, written, claim } of writes) {
    const current = currentOf(source, claim);
    statements.push(
      // Each page row is new (the source's old rows went first, with their edges): its edges are only inserted.
      ...written.pages.flatMap((p) => pageLinkStatements(source.brainId, stmt(OWN_PAGE, source.id, p.slug), p.markdown, current, true)),
      ...conceptWriteStatements(source, written.concepts ?? [], current, source.pageCount === 0),
      ...written.pages
        .filter((p) => p.vector && written.model)
        .map((p) =>
          // Vectors go in as JSON text through vector32(): binding a raw Float32 buffer crashes libsql 0.5.
          stmt(
            `INSERT INTO page_vectors (page_id, brain_id, model, embedding)
            SELECT id, brain_id, ?, vector32(?) FROM pages WHERE source_id = ? AND slug = ? AND edited = 0 AND ${current.sql}`,
            written.model!, JSON.stringify(Array.from(p.vector!)), source.id, p.slug, ...current.args,
          ),
        ),
      stmt(
        `UPDATE sources SET status = 'ready', error = NULL, page_count = ?, title = ?, content = ?, updated_at = ? WHERE id = ? AND ${current.sql}`,
        written.pages.length, written.title, written.content, Date.now(), source.id, ...current.args,
      ),
    );
    readyAt.push(statements.length - 1);
  }
  return { statements, readyAt };
}

/**
 * Links new pages from the pages that name them (inline, or on their `Related:` line; found by findInwardLinks, maybe on another
 * connection): each page's text is read again here, so a link added meanwhile is kept. Returns the pages
 * updated.
 */
export async function applyInwardLinks(db: RootDb, brainId: string, links: InwardLink[]): Promise<number> {
  if (links.length === 0) return 0;
  const byPage = new Map<number, { slug: string; title: string }[]>();
  for (const { from, to, title } of links) byPage.set(from, [...(byPage.get(from) ?? []), { slug: to, title }]);
  const rows = await db.all<{ id: number; markdown: string }>(sql`
    SELECT p.id, p.markdown FROM json_each(${JSON.stringify([...byPage.keys()])}) j CROSS JOIN ${pages} p ON p.id = j.value
    WHERE p.kind = 'source' AND p.edited = 0`);
  const statements: Statement[] = [];
  let updated = 0;
  for (const row of rows) {
    const existing = new Set(linkTargetsOf(row.markdown));
    const added = byPage.get(Number(row.id))!.filter((t) => !existing.has(t.slug) && existing.add(t.slug));
    if (added.length === 0) continue;
    updated++;
    statements.push(...linksAddedStatements(Number(row.id), brainId, addTitleLinks(row.markdown, added), added.map((t) => t.slug), row.markdown));
  }
  await runBatch(db, statements);
  return updated;
}
