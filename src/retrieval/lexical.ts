// BM25 over the pages' FTS5 index (title weighs 3, body 1: DESIGN.md "Full text"), limited to some brains.
import type { Db } from "../db/client";
import { queryRows } from "../db/plain";
import { ftsMatch, MAX_MATCHED_TERMS } from "./terms";

export interface LexicalHit {
  pageId: number;
  brainId: string;
  /** -bm25(): higher is better, 0 means no term matched. */
  score: number;
}

/** bm25() weights in the FTS5 column order of pages_fts: (title, body). */
const TITLE_WEIGHT = 3.0;
const BODY_WEIGHT = 1.0;

/** Stage one reads this many of the index's best pages over all brains. */
const GLOBAL_TOP = 200;

/**
 * The two full-text indexes (migration 0013): source and note pages, and concept pages apart (their
 * sentences copy source sentences; in one index they skewed the sources' BM25 statistics).
 */
export type LexicalIndex = "pages_fts" | "concept_fts";

/**
 * The brains' best pages by BM25: over their own statistics when they are small (perBrainRanking). Joining every match to `pages` to filter by brain costs ~3x the bm25
 * ranking itself on 100k pages (a row read per match), so stage one ranks in the index alone and keeps the
 * brains' pages of its top list; that is exact when they fill `limit` or the index has no more matches.
 * Only when other brains' pages crowd the top list does stage two rank within the brains with the join.
 */
export async function searchLexical(
  db: Db,
  brainIds: readonly string[],
  terms: readonly string[],
  limit: number,
  index: LexicalIndex = "pages_fts",
  globalTop = GLOBAL_TOP,
): Promise<LexicalHit[]> {
  if (terms.length === 0 || brainIds.length === 0) return [];
  // The statements below grow with the terms (a UNION ALL per term, past SQLite's 500 on a long question).
  terms = terms.slice(0, MAX_MATCHED_TERMS);
  // Plain statements with fixed text (db/plain.ts): building them through drizzle cost more than some of the
  // index reads of a query.
  const match = ftsMatch(terms);
  const inBrains = JSON.stringify(brainIds);
  const small = await perBrainRanking(db, index, brainIds, terms);
  const top =
    small?.slice(0, limit) ??
    (await queryRows<{ page_id: number; score: number }>(
      db,
      `SELECT rowid AS page_id, -bm25(${index}, ${TITLE_WEIGHT}, ${BODY_WEIGHT}) AS score
      FROM ${index} WHERE ${index} MATCH ? ORDER BY score DESC LIMIT ?`,
      match,
      Math.max(globalTop, limit),
    ));
  if (top.length === 0) return [];
  // `+brain_id` keeps the planner on the primary key: through the brain index it read every page of a
  // 100k-page brain (7.7 ms against 0.9 ms).
  const owners = await queryRows<{ id: number; brain_id: string }>(
    db,
    "SELECT id, brain_id FROM pages WHERE id IN (SELECT value FROM json_each(?)) AND +brain_id IN (SELECT value FROM json_each(?))",
    JSON.stringify(top.map((t) => Number(t.page_id))),
    inBrains,
  );
  const brainOf = new Map(owners.map((o) => [Number(o.id), o.brain_id]));
  const hits = top.flatMap((t) => {
    const brainId = brainOf.get(Number(t.page_id));
    return brainId ? [{ pageId: Number(t.page_id), brainId, score: Number(t.score) }] : [];
  });
  // The brains' own ranking holds every match: exact.
  if (small || hits.length >= limit || top.length < Math.max(globalTop, limit)) return hits.slice(0, limit);
  const rows = await queryRows<{ page_id: number; brain_id: string; score: number }>(
    db,
    `SELECT p.id AS page_id, p.brain_id, -bm25(${index}, ${TITLE_WEIGHT}, ${BODY_WEIGHT}) AS score
    FROM ${index} CROSS JOIN pages p ON p.id = ${index}.rowid
    WHERE ${index} MATCH ? AND p.brain_id IN (SELECT value FROM json_each(?))
    ORDER BY score DESC LIMIT ?`,
    match,
    inBrains,
    limit,
  );
  return rows.map((r) => ({ pageId: Number(r.page_id), brainId: r.brain_id, score: Number(r.score) }));
}

/** Brains holding fewer pages than this (in the index searched) are ranked with their own statistics. */
export const PER_BRAIN_PAGES = 2_000;

/**
 * BM25 with the brains' own statistics: each term's bm25() over the brains' pages alone, re-weighted from
 * the index's IDF (all brains of the server; FTS5's classic form, floored at 1e-6) to the brains' IDF
 * (Lucene's always-positive form, over their page count and their pages holding the term), then summed.
 * A word every page of a brain shares then weighs little in that brain however rare it is on the server
 * (and a brain's first few pages on one subject keep their own words' weight: the classic IDF of a word in
 * half the pages or more is nothing). Null when the brains are large: their pages' matches are then read
 * from the index's top list (searchLexical), where the index's statistics stand for theirs.
 * Length normalization stays the index's (bm25() reads the average length of all its rows).
 */
async function perBrainRanking(db: Db, index: LexicalIndex, brainIds: readonly string[], terms: readonly string[]): Promise<{ page_id: number; score: number }[] | null> {
  const inBrains = JSON.stringify(brainIds);
  const kind = index === "concept_fts" ? "kind = 'concept'" : "kind != 'concept'";
  const [count] = await queryRows<{ n: number }>(
    db,
    `SELECT count(*) AS n FROM (SELECT 1 FROM pages WHERE brain_id IN (SELECT value FROM json_each(?)) AND ${kind} LIMIT ${PER_BRAIN_PAGES})`,
    inBrains,
  );
  const brainPages = Number(count?.n ?? 0);
  if (brainPages >= PER_BRAIN_PAGES) return null;
  if (brainPages === 0) return [];
  const unique = [...new Set(terms)];
  // Every term's matches among the brains' pages in one statement (a round trip per term cost more).
  const perTerm = unique
    .map(
      (_, i) =>
        `SELECT ${i} AS term, rowid AS page_id, -bm25(${index}, ${TITLE_WEIGHT}, ${BODY_WEIGHT}) AS score FROM ${index} WHERE ${index} MATCH ? AND rowid IN (SELECT id FROM mine)`,
    )
    .join(" UNION ALL ");
  const hits = await queryRows<{ term: number; page_id: number; score: number }>(
    db,
    `WITH mine AS MATERIALIZED (SELECT id FROM pages WHERE brain_id IN (SELECT value FROM json_each(?)) AND ${kind}) ${perTerm}`,
    inBrains,
    ...unique.map((term) => ftsMatch([term])),
  );
  if (hits.length === 0) return [];
  const inBrain = unique.map(() => 0);
  for (const hit of hits) inBrain[Number(hit.term)]!++;
  const stats = await indexStats(db, index, unique.filter((_, i) => inBrain[i]! > 0));
  const ratios = unique.map((term, i) => {
    const n = inBrain[i]!;
    if (n === 0) return 0;
    const global = Math.min(Math.max(stats.documentFrequency.get(term) ?? n, n), stats.rows);
    const classic = Math.log((stats.rows - global + 0.5) / (global + 0.5));
    return Math.log(1 + (brainPages - n + 0.5) / (n + 0.5)) / (classic <= 1e-6 ? 1e-6 : classic); // FTS5's floor, as fts5_aux.c applies it
  });
  const scores = new Map<number, number>();
  for (const hit of hits) scores.set(Number(hit.page_id), (scores.get(Number(hit.page_id)) ?? 0) + Number(hit.score) * ratios[Number(hit.term)]!);
  return [...scores].map(([page_id, score]) => ({ page_id, score })).sort((a, b) => b.score - a.score || a.page_id - b.page_id);
}

/** Indexes below this many rows have their statistics counted at every query. */
const FRESH_COUNT_ROWS = 20_000;

/** The index's row count and its terms' document frequencies as bm25() reads them, cached briefly per database. */
const indexCaches = new WeakMap<Db, Map<LexicalIndex, { rows: { n: number; at: number }; df: Map<string, { n: number; at: number }> }>>();

async function indexStats(db: Db, index: LexicalIndex, terms: readonly string[]): Promise<{ rows: number; documentFrequency: Map<string, number> }> {
  const now = Date.now();
  if (!indexCaches.has(db)) indexCaches.set(db, new Map());
  const caches = indexCaches.get(db)!;
  if (!caches.has(index)) caches.set(index, { rows: { n: 0, at: -Infinity }, df: new Map() });
  const cache = caches.get(index)!;
  // A small index is counted afresh (cheap): bm25() reads its statistics as they are now, and a brain's first
  // sources change them by a large share.
  const fresh = (at: number) => cache.rows.n >= FRESH_COUNT_ROWS && now - at < STATS_TTL_MS;
  if (!fresh(cache.rows.at)) {
    const [row] = await queryRows<{ n: number }>(db, `SELECT count(*) AS n FROM ${index}_docsize`);
    cache.rows = { n: Number(row?.n ?? 0), at: now };
  }
  const stale = terms.filter((t) => !fresh(cache.df.get(t)?.at ?? -Infinity));
  if (stale.length > 0) {
    const counts = await queryRows<{ term: number; n: number }>(
      db,
      stale.map((_, i) => `SELECT ${i} AS term, count(*) AS n FROM ${index} WHERE ${index} MATCH ?`).join(" UNION ALL "),
      ...stale.map((t) => ftsMatch([t])),
    );
    if (cache.df.size >= MAX_CACHED_TERMS) cache.df.clear();
    for (const c of counts) cache.df.set(stale[Number(c.term)]!, { n: Number(c.n), at: now });
  }
  return { rows: Math.max(cache.rows.n, 1), documentFrequency: new Map(terms.map((t) => [t, cache.df.get(t)?.n ?? 0])) };
}

export interface TermStats {
  /** Pages in the pages index (all brains: bm25() ranks with the same global statistics; no concept pages). */
  pageCount: number;
  /** Pages containing each term (after the index's own stemming). */
  documentFrequency: Map<string, number>;
}

const STATS_TTL_MS = 30_000;
const MAX_CACHED_TERMS = 20_000;

/**
 * Document frequencies for IDF weights, cached briefly: they drift slowly and a count over a common term's
 * postings costs milliseconds on a large index.
 */
export function createTermStats(db: Db) {
  const cache = new Map<string, { df: number; at: number }>();
  let pages = { count: 0, at: -Infinity };

  async function documentFrequency(term: string, now: number): Promise<number> {
    const hit = cache.get(term);
    if (hit && now - hit.at < STATS_TTL_MS) return hit.df;
    const [row] = await queryRows<{ n: number }>(db, "SELECT count(*) AS n FROM pages_fts WHERE pages_fts MATCH ?", ftsMatch([term]));
    const df = Number(row?.n ?? 0);
    if (cache.size >= MAX_CACHED_TERMS) cache.clear();
    cache.set(term, { df, at: now });
    return df;
  }

  return async function termStats(terms: readonly string[]): Promise<TermStats> {
    const now = Date.now();
    if (now - pages.at >= STATS_TTL_MS) {
      // What pages_fts holds: the pages made from a source (concept pages have none). Counted over the
      // source index (3.7 ms at 100k pages; a filter on kind read every row, 6.7 ms).
      const [row] = await queryRows<{ n: number }>(db, "SELECT count(source_id) AS n FROM pages");
      pages = { count: Number(row?.n ?? 0), at: now };
    }
    const frequencies = new Map<string, number>();
    for (const term of terms) frequencies.set(term, await documentFrequency(term, now));
    return { pageCount: pages.count, documentFrequency: frequencies };
  };
}

/** Indexes smaller than this match on every term: pruning only pays where postings are long. */
const PRUNE_FROM_PAGES = 2_000;
/** A term in more than this share of pages is matched only when the query has nothing rarer. */
const COMMON_SHARE = 0.1;

/**
 * The terms worth matching on. In a large index a term found in more than a tenth of the pages adds most
 * of the work (its postings) and little of the ranking (IDF ≈ 0.8 against ≈ 7 for a rare term): the same
 * trade as the stopword list, decided by the index's own statistics.
 */
export function selectiveTerms(terms: readonly string[], stats: TermStats): string[] {
  if (stats.pageCount < PRUNE_FROM_PAGES) return [...terms];
  const rare = terms.filter((t) => (stats.documentFrequency.get(t) ?? 0) <= stats.pageCount * COMMON_SHARE);
  return rare.length > 0 ? rare : [...terms];
}

/** BM25's IDF in its always-positive form (Lucene's): a term in every page still weighs a little. */
export function idf(stats: TermStats, term: string): number {
  const n = Math.max(stats.pageCount, 1);
  const df = Math.min(stats.documentFrequency.get(term) ?? 0, n);
  return Math.log(1 + (n - df + 0.5) / (df + 0.5));
}
