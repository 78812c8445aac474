// Lone concepts: the ones a single source names, which is almost every noun phrase of a brain (measured on
// the import bench: 99% of concept keys, 172k of 173k at 5k sources). Each used to get a mention row, three
// index inserts at random places of ever-growing indexes, and the import slowed as the brain grew. Now:
// - a source's lone concepts are written as ONE appended row (`concept_lone`: their mentions, and the sentences
//   they are in, each once, as JSON; compactRow);
// - a merge, every MERGE_AT_SOURCES sources or when no source waits, adds their keys to `concept_seen` in
//   sorted order (each index page touched once per merge, not once per key; a row is the brain's number, the
//   concept and the lone row's id, migration 0022) and finds those a second source
//   named: their mentions are promoted to `concept_mentions`, they are marked dirty, and the refresh that
//   follows gives them their page and links the sources' pages to it;
// - a source prepared after the merge finds the concept in `concept_seen` at once (resolve.ts) and promotes it.
// Lone concepts of the last unmerged sources are thus found late (at the merge, under the same lock as the
// refresh), never lost: the rows are written with the source's pages, and a kill -9 leaves only unmerged rows,
// which the next merge (the next source's batch, or the wiki-refresh job queued with the write) takes.
import { sql } from "drizzle-orm";
import type { RootDb } from "../db/client";
import { enqueueStatement } from "../queue";
import { WIKI_REFRESH_JOB } from "../queue/kinds";
import { CONCEPT_PAGES, ALWAYS, runBatch, stmt, type Fragment, type Statement } from "../db/plain";
import { nextTurn } from "../lib/time-slice";

/**
 * Unmerged sources of a brain that start a merge while more sources wait: MERGE_AT_SOURCES, or an eighth of
 * the brain's sources when that is more. A merge writes nearly every index page its keys fall on, so keys are
 * cheap only in batches that grow with the index (on a 50k-source brain: 25 µs a key merging 500 sources'
 * keys, 16 at 2,000, 8 at 6,000).
 */
export const MERGE_AT_SOURCES = 2000;
const MERGE_AT_SHARE = 1 / 8;
/** Unmerged rows one merge round reads at most (about 33 keys each): bounds its memory. */
const MERGE_ROUND_SOURCES = 20_000;
/** Rows read per query while a round gathers its keys. */
const READ_PAGE = 500;
/**
 * Keys per merge transaction. Each is one synchronous write on the main thread, during which no source is
 * drafted for the extraction thread and its answers wait: at 5,000 keys (~40 ms a transaction at 20k sources)
 * the thread ran out of work at every merge. At 1,000 (~9 ms) it was busy 84-86% of 20k→30k instead of
 * 80-83% (two alternating rounds; windows of 2 s below 85% busy: 2 of 10-11 against 6). The keys are sorted,
 * so smaller transactions still write each index page once a merge.
 */
const MERGE_CHUNK_KEYS = 1000;

/** A lone mention: concept slug, page slug, surface, sentence, weight (salience). */
export interface LoneMention {
  c: string;
  p: string;
  s: string;
  t: string;
  w: number;
}

/** A stored mention: [concept, surface (null: the concept's words), index in `sentences`, weight]. */
type StoredMention = [string, string | null, number, number];

/**
 * A source's lone mentions as stored: each sentence once (`sentences`: [[page slug, sentence], ...]), however
 * many concepts it names (a third of the bytes of one sentence per mention: 9.8 → ~3 KB a source).
 */
export function compactRow(lone: LoneMention[]): { mentions: string; sentences: string } {
  const sentences: [string, string][] = [];
  // Per page, per sentence (the sentence strings themselves as keys: a joined key was a new string to hash
  // for every mention).
  const at = new Map<string, Map<string, number>>();
  const mentions = lone.map((m): StoredMention => {
    let onPage = at.get(m.p);
    if (!onPage) at.set(m.p, (onPage = new Map()));
    let i = onPage.get(m.t);
    if (i === undefined) onPage.set(m.t, (i = sentences.push([m.p, m.t]) - 1));
    return [m.c, isSlugWords(m.s, m.c) ? null : m.s, i, m.w];
  });
  return { mentions: JSON.stringify(mentions), sentences: JSON.stringify(sentences) };
}

/** `surface` is `slug` with its hyphens as spaces (stored as null: the concept's own words). */
function isSlugWords(surface: string, slug: string): boolean {
  if (surface.length !== slug.length) return false;
  for (let i = 0; i < slug.length; i++) {
    const c = slug.charCodeAt(i);
    if (surface.charCodeAt(i) !== (c === 45 ? 32 : c)) return false; // "-" → " "
  }
  return true;
}

/** The concept of a stored mention `m` (a json_each row over `concept_lone.mentions`), in SQL. */
const STORED_CONCEPT = "m.value ->> 0";

/** The number of brain `?` (`concept_seen.brain`), in SQL: evaluated once per statement. */
const BRAIN_NUMBER = "(SELECT number FROM brain_numbers WHERE brain_id = ?)";

/**
 * The highest lone row id of brain `brainId` merged, in SQL. Rows take increasing ids in commit order (their
 * writes hold the database's write lock) and are merged in id order, so the rows above it are the unmerged
 * ones: a number per brain, where a mark per row rewrote each ~3 KB row once more (migration 0023).
 */
const MERGED_THROUGH = (brainId: string) => sql`coalesce((SELECT lone_merged_through FROM brain_numbers WHERE brain_id = ${brainId}), 0)`;

/** A source's lone concepts leave `concept_seen` (before its row is replaced or deleted). */
export const forgetSeenStatement = (brainId: string, sourceId: string, guard: Fragment = ALWAYS): Statement => ({
  sql: `DELETE FROM concept_seen WHERE brain = ${BRAIN_NUMBER} AND lone = (SELECT id FROM concept_lone WHERE source_id = ?)
    AND concept IN (SELECT ${STORED_CONCEPT} FROM concept_lone l CROSS JOIN json_each(l.mentions) m WHERE l.source_id = ?)
    AND ${guard.sql}`,
  args: [brainId, sourceId, sourceId, ...guard.args],
});

/**
 * A source's lone concepts in its write batch (each statement guarded by `current`): its previous concepts
 * leave `concept_seen`, its row is replaced (a new id: a merge reading the old row skips it), and the
 * concepts it links take along the other sources' lone mentions of them (promotion). `firstWrite`: the source
 * has no row yet.
 */
export function loneWriteStatements(source: { id: string; brainId: string }, lone: LoneMention[], linkedSlugs: string[], current: Fragment, firstWrite = false): Statement[] {
  const row = lone.length ? compactRow(lone) : null;
  const statements: Statement[] = firstWrite ? [] : [forgetSeenStatement(source.brainId, source.id, current)];
  if (row)
    statements.push({
      sql: `INSERT OR REPLACE INTO concept_lone (source_id, brain_id, mentions, sentences) SELECT ?, ?, ?, ? WHERE ${current.sql}`,
      args: [source.id, source.brainId, row.mentions, row.sentences, ...current.args],
    });
  else if (!firstWrite) statements.push({ sql: `DELETE FROM concept_lone WHERE source_id = ? AND ${current.sql}`, args: [source.id, ...current.args] });
  if (linkedSlugs.length) statements.push(...promoteStatements(source.brainId, stmt("SELECT value FROM json_each(?)", JSON.stringify(linkedSlugs)), current));
  // The backstop for a kill -9 between this write and the merge: a refresh job (one queued per brain).
  if (lone.length)
    statements.push(
      enqueueStatement(
        { kind: WIKI_REFRESH_JOB, subjectId: source.brainId, maxAttempts: 5 },
        {
          sql: `${current.sql} AND NOT EXISTS (SELECT 1 FROM jobs WHERE subject_id = ? AND kind = ? AND status = 'queued')`,
          args: [...current.args, source.brainId, WIKI_REFRESH_JOB],
        },
      ),
    );
  return statements;
}

/** `keys` (a query of `value`s): their lone mentions of any source become mention rows and leave `concept_seen`. */
function promoteStatements(brainId: string, keys: Fragment, guard: Fragment): Statement[] {
  return [
    {
      sql: `INSERT INTO concept_mentions (brain_id, concept, source_id, page_slug, surface, sentence, weight)
      SELECT l.brain_id, s.concept, l.source_id, l.sentences ->> ('$[' || (m.value ->> 2) || '][0]'),
             coalesce(m.value ->> 1, replace(s.concept, '-', ' ')), l.sentences ->> ('$[' || (m.value ->> 2) || '][1]'), m.value ->> 3
      FROM (${keys.sql}) k CROSS JOIN concept_seen s ON s.brain = ${BRAIN_NUMBER} AND s.concept = k.value
      CROSS JOIN concept_lone l ON l.id = s.lone CROSS JOIN json_each(l.mentions) m
      WHERE ${STORED_CONCEPT} = s.concept AND ${guard.sql}`,
      args: [...keys.args, brainId, ...guard.args],
    },
    { sql: `DELETE FROM concept_seen WHERE brain = ${BRAIN_NUMBER} AND concept IN (${keys.sql}) AND ${guard.sql}`, args: [brainId, ...keys.args, ...guard.args] },
  ];
}

/**
 * After an ingest batch, and in the brain's refresh job: merges when enough sources wait unmerged, or when no
 * source of the brain waits to be ingested (a queued ingest job: its batch asks again once it is written). A
 * merge rewrites nearly every page of `concept_seen`, so merging a few sources' concepts while more wait costs
 * as much as merging them all later. Per brain: another brain's queue no longer holds this brain's merge back.
 * The refresh job, the backstop for a process killed before its batch merged, merged unconditionally: queued
 * behind the sources posted before it, it merged every few hundred sources during an import.
 */
export async function mergeLoneConceptsIfDue(db: RootDb, brainId: string, ingestKind: string): Promise<number> {
  const [brain] = await db.all<{ sources: number }>(sql`SELECT source_count AS sources FROM brains WHERE id = ${brainId}`);
  const mergeAt = Math.max(MERGE_AT_SOURCES, Math.floor(Number(brain?.sources ?? 0) * MERGE_AT_SHARE));
  // The queued jobs are read in claim order (the claim index) up to the first of this brain's: the first one
  // while the brain is being imported. CROSS JOIN keeps that order (from the brain's sources, the planner would
  // probe the jobs of each of them).
  const [due] = await db.all<{ pending: number; waiting: number }>(sql`SELECT
      (SELECT count(*) FROM (SELECT 1 FROM concept_lone WHERE brain_id = ${brainId} AND id > ${MERGED_THROUGH(brainId)} LIMIT ${mergeAt})) AS pending,
      EXISTS (SELECT 1 FROM jobs j CROSS JOIN sources s ON s.id = j.subject_id
        WHERE j.status = 'queued' AND j.kind = ${ingestKind} AND s.brain_id = ${brainId}) AS waiting`);
  const pending = Number(due?.pending ?? 0);
  if (pending === 0 || (pending < mergeAt && Number(due?.waiting))) return 0;
  return mergeLoneConcepts(db, brainId);
}

/**
 * Merges every unmerged lone row of a brain; returns how many concepts it found named by a second source
 * (marked dirty: the refresh that follows gives them their page). Run under the brain's refresh lock.
 */
export async function mergeLoneConcepts(db: RootDb, brainId: string): Promise<number> {
  let recurring = 0;
  // The last id read (the rounds go on from it, whatever the stored number says).
  let through = -1;
  // Only the rows committed before the merge began: a merge writes nearly every page of `concept_seen`
  // however few keys it adds, and chasing the rows written meanwhile made each due merge a cascade of rounds
  // (2,112 rows, then 448, 160, 32 at 3k sources: each a rewrite of the index, 5.7 log pages a source at
  // 20k→30k). A source written meanwhile asks for its own merge after its write (mergeLoneConceptsIfDue).
  const [last] = await db.all<{ id: number | null }>(sql`SELECT max(id) AS id FROM concept_lone WHERE brain_id = ${brainId}`);
  const until = Number(last?.id ?? 0);
  for (;;) {
    // "concept id" pairs of every unmerged row (up to a round's worth), in key order: the inserts walk the
    // index from one end to the other, each index page written once per round. Strings (a slug holds no
    // space), so the sort is the engine's own: sorting [concept, id] tuples with a comparator held this
    // thread for 140-360 ms at 5,000 sources, while the extraction threads waited for work (strings: ~35 ms).
    const pairs: string[] = [];
    let rowsRead = 0;
    for (;;) {
      // A turn of the event loop between pages of rows: reading and parsing a round's rows held this thread
      // for 200-470 ms at 5,000 sources.
      await nextTurn();
      const rows = await db.all<{ id: number; mentions: string }>(sql`
        SELECT id, mentions FROM concept_lone WHERE brain_id = ${brainId} AND id > max(${through}, ${MERGED_THROUGH(brainId)}) AND id <= ${until}
        ORDER BY id LIMIT ${READ_PAGE}`);
      for (const row of rows) {
        for (const c of new Set((JSON.parse(row.mentions) as StoredMention[]).map((m) => m[0]))) pairs.push(`${c} ${row.id}`);
      }
      rowsRead += rows.length;
      if (rows.length) through = Number(rows.at(-1)!.id);
      if (rows.length < READ_PAGE || rowsRead >= MERGE_ROUND_SOURCES) break;
    }
    if (rowsRead === 0) return recurring;
    await nextTurn();
    pairs.sort();
    for (let from = 0; from < pairs.length; from += MERGE_CHUNK_KEYS) {
      await nextTurn(); // requests in between chunks
      recurring += await mergeChunk(db, brainId, pairs.slice(from, from + MERGE_CHUNK_KEYS));
    }
    // Never lowered: a merge running beside this one (another replica) may have gone further.
    await db.run(sql`UPDATE brain_numbers SET lone_merged_through = max(lone_merged_through, ${through}) WHERE brain_id = ${brainId}`);
  }
}

/** `pairs`: "concept id" strings (a lone row's id), sorted. */
async function mergeChunk(db: RootDb, brainId: string, pairs: string[]): Promise<number> {
  const keys = JSON.stringify([...new Set(pairs.map((p) => p.slice(0, p.indexOf(" "))))]);
  // A row replaced or deleted since it was read (reprocess, delete) has another id or none: skipped.
  const statements = [
    stmt(
      `INSERT OR IGNORE INTO concept_seen (brain, concept, lone)
      SELECT ${BRAIN_NUMBER}, substr(p.value, 1, instr(p.value, ' ') - 1), l.id FROM json_each(?) p
      CROSS JOIN concept_lone l ON l.id = CAST(substr(p.value, instr(p.value, ' ') + 1) AS INTEGER)`,
      brainId, JSON.stringify(pairs),
    ),
    // Named by a second source (merged now or before), or already a linked concept or a page: dirty.
    stmt(
      `INSERT OR IGNORE INTO concept_dirty (brain_id, concept)
      SELECT ?1, k.value FROM json_each(?2) k
      WHERE (SELECT count(*) FROM (SELECT 1 FROM concept_seen s WHERE s.brain = (SELECT number FROM brain_numbers WHERE brain_id = ?1) AND s.concept = k.value LIMIT 2)) >= 2
        OR EXISTS (SELECT 1 FROM concept_mentions m WHERE m.brain_id = ?1 AND m.concept = k.value)
        OR EXISTS (SELECT 1 FROM pages p ${CONCEPT_PAGES} WHERE p.brain_id = ?1 AND p.slug = k.value AND p.kind = 'concept')`,
      brainId, keys,
    ),
    // Every dirty key is a linked concept (or one to re-derive): its lone mentions join its mention rows.
    ...promoteStatements(
      brainId,
      stmt("SELECT k.value FROM json_each(?) k WHERE EXISTS (SELECT 1 FROM concept_dirty d WHERE d.brain_id = ? AND d.concept = k.value)", keys, brainId),
      ALWAYS,
    ),
  ];
  const results = (await runBatch(db, statements)) as unknown as { rowsAffected: number }[];
  return results[1]?.rowsAffected ?? 0;
}
