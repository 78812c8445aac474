// BM25 with the brains' own statistics (issue 58): one FTS5 index holds every brain of the server, and bm25()
// weighs each term by its IDF over all of them. A brain (or a brain set) ranks with the IDF of its own pages
// instead: a word every page of a brain shares weighs little there however rare it is on the server, and a
// word the brain seldom uses keeps its weight though other brains use it everywhere.
import type { Db } from "../db/client";
import { queryRows } from "../db/plain";
import { averageOf, brainPageLengths, indexAverageLength, pageLengths, renormalized } from "./document-lengths";
import { ftsMatch } from "./terms";

/** bm25() weights in the FTS5 column order of the indexes: (title, body). */
export const TITLE_WEIGHT = 3.0;
export const BODY_WEIGHT = 1.0;
export const STATS_TTL_MS = 30_000;
export const MAX_CACHED_TERMS = 20_000;

/**
 * The two full-text indexes (migration 0013): source and note pages, and concept pages apart (their
 * sentences copy source sentences; in one index they skewed the sources' BM25 statistics).
 */
export type LexicalIndex = "pages_fts" | "concept_fts";

/** Brains holding fewer pages than this (in the index searched) are ranked over every match they hold. */
export const PER_BRAIN_PAGES = 2_000;
/** Brains holding this share of the index or more rank with its statistics: theirs are nearly the same. */
const MOST_OF_THE_INDEX = 0.9;
/** A large brain's candidates: at least this many of each term's best pages. */
const MIN_TERM_POOL = 50;
/** Indexes below this many rows have their statistics counted at every query. */
const FRESH_COUNT_ROWS = 20_000;

/**
 * Keeps a term's matches to the candidates (`mine`) while they are read once. Given `rowid IN (...)` as a
 * constraint, FTS5 would look the term up once per candidate, each lookup reading the term's index entries
 * again: seconds for a brain of two thousand pages. `+rowid` makes it a filter SQLite applies instead.
 */
export const AMONG_CANDIDATES = "+rowid IN (SELECT id FROM mine)";

type Ranked = { page_id: number; score: number }[];
const kindFilter = (index: LexicalIndex) => (index === "concept_fts" ? "kind = 'concept'" : "kind != 'concept'");

/** Cached counts: a brain set's pages and its pages holding a term, per database and index. */
const caches = new WeakMap<Db, Map<string, { n: number; at: number }>>();

export async function cachedCount(db: Db, key: string, fresh: boolean, count: () => Promise<number>): Promise<number> {
  if (!caches.has(db)) caches.set(db, new Map());
  const cache = caches.get(db)!;
  const now = Date.now();
  const hit = cache.get(key);
  if (hit && fresh && now - hit.at < STATS_TTL_MS) return hit.n;
  const n = await count();
  if (cache.size >= MAX_CACHED_TERMS) cache.clear();
  cache.set(key, { n, at: now });
  return n;
}

/**
 * The brains' pages in the index, counted up to PER_BRAIN_PAGES (`inBrains`: their ids as a sorted JSON
 * array). A small brain is counted at every query (its first sources change its statistics by a large
 * share); a count at the cap is kept as long as the other cached counts, since a large brain's ranking
 * reads those anyway.
 */
export async function cappedPageCount(db: Db, index: LexicalIndex, inBrains: string): Promise<number> {
  const key = `${index}\u0000capped\u0000${inBrains}`;
  const atCap = (caches.get(db)?.get(key)?.n ?? 0) >= PER_BRAIN_PAGES;
  return cachedCount(db, key, atCap, async () => {
    const [row] = await queryRows<{ n: number }>(
      db,
      `SELECT count(*) AS n FROM (SELECT 1 FROM pages WHERE brain_id IN (SELECT value FROM json_each(?)) AND ${kindFilter(index)} LIMIT ${PER_BRAIN_PAGES})`,
      inBrains,
    );
    return Number(row?.n ?? 0);
  });
}

/**
 * The brains' best pages by BM25 over their own statistics, or null when the index's statistics are theirs
 * (they hold nearly all of it: searchLexical then ranks in the index alone). Small brains are ranked over
 * every match they hold; large ones over each term's best pages in the brains (about `pool` in all). Each term's bm25() is re-weighted from the index's IDF (all brains; FTS5's classic form,
 * floored at 1e-6) to the brains' IDF (Lucene's always-positive form, over their page count and their pages
 * holding the term), and its length normalization from the index's average page length to the brains'
 * (document-lengths.ts), then summed.
 */
export async function brainRanking(db: Db, index: LexicalIndex, brainIds: readonly string[], terms: readonly string[], pool: number): Promise<Ranked | null> {
  const inBrains = JSON.stringify([...brainIds].sort());
  const kind = kindFilter(index);
  let brainPages = await cappedPageCount(db, index, inBrains);
  if (brainPages === 0) return [];
  const unique = [...new Set(terms)];
  const small = brainPages < PER_BRAIN_PAGES;
  if (!small) {
    const stats = await indexStats(db, index, []);
    brainPages = await cachedCount(db, `${index}\u0000${inBrains}`, true, async () => {
      const [row] = await queryRows<{ n: number }>(db, `SELECT count(*) AS n FROM pages WHERE brain_id IN (SELECT value FROM json_each(?)) AND ${kind}`, inBrains);
      return Number(row?.n ?? 0);
    });
    if (brainPages >= stats.rows * MOST_OF_THE_INDEX) return null;
  }
  // Every term's matches among the candidates in one statement (a round trip per term cost more): all the
  // brains' pages when they are small, else each term's best pages in the brains. One term's order is the
  // same by the index's IDF and by the brains' (a factor for all its pages), so a page the brains' statistics
  // put first is among the best of one of its terms; the brains' best by the index's statistics were not.
  const perTermPool = Math.max(Math.ceil(pool / unique.length), MIN_TERM_POOL);
  const candidates = small
    ? `mine AS MATERIALIZED (SELECT id FROM pages WHERE brain_id IN (SELECT value FROM json_each(?)) AND ${kind})`
    : `mine AS MATERIALIZED (${unique
        .map(
          () => `SELECT id FROM (SELECT p.id FROM ${index} CROSS JOIN pages p ON p.id = ${index}.rowid
            WHERE ${index} MATCH ? AND p.brain_id IN (SELECT value FROM json_each(?)) ORDER BY bm25(${index}, ${TITLE_WEIGHT}, ${BODY_WEIGHT}) LIMIT ${perTermPool})`,
        )
        .join(" UNION ")})`;
  const perTerm = unique
    .map((_, i) => `SELECT ${i} AS term, rowid AS page_id, -bm25(${index}, ${TITLE_WEIGHT}, ${BODY_WEIGHT}) AS score FROM ${index} WHERE ${index} MATCH ? AND ${AMONG_CANDIDATES}`)
    .join(" UNION ALL ");
  const hits = await queryRows<{ term: number; page_id: number; score: number }>(
    db,
    `WITH ${candidates} ${perTerm}`,
    ...(small ? [inBrains] : unique.flatMap((term) => [ftsMatch([term]), inBrains])),
    ...unique.map((term) => ftsMatch([term])),
  );
  if (hits.length === 0) return [];
  const inBrain = unique.map(() => 0);
  for (const hit of hits) inBrain[Number(hit.term)]!++;
  // A large brain's document frequencies are counted over all its pages (not only the candidates), cached.
  if (!small)
    for (const [i, term] of unique.entries())
      if (inBrain[i]! > 0) inBrain[i] = await cachedCount(db, `${index}\u0000${inBrains}\u0000${term}`, true, () => brainFrequency(db, index, inBrains, term));
  const stats = await indexStats(db, index, unique.filter((_, i) => inBrain[i]! > 0));
  const idfs = unique.map((term, i) => {
    const n = inBrain[i]!;
    const global = Math.min(Math.max(stats.documentFrequency.get(term) ?? n, n), stats.rows);
    const classic = Math.log((stats.rows - global + 0.5) / (global + 0.5));
    // FTS5's floor, as fts5_aux.c applies it, then the brains' own (Lucene's always-positive form).
    return { index: classic <= 1e-6 ? 1e-6 : classic, brains: Math.log(1 + (brainPages - n + 0.5) / (n + 0.5)) };
  });
  const { lengths, brainAverage } = await lengthsOf(db, index, inBrains, kind, small, hits);
  const indexAverage = await indexAverageLength(db, index);
  const scores = new Map<number, number>();
  for (const hit of hits) {
    const page = Number(hit.page_id);
    const idf = idfs[Number(hit.term)]!;
    const score = renormalized(Number(hit.score), idf.index, lengths.get(page) ?? indexAverage, indexAverage, brainAverage) * (idf.brains / idf.index);
    scores.set(page, (scores.get(page) ?? 0) + score);
  }
  return [...scores].map(([page_id, score]) => ({ page_id, score })).sort((a, b) => b.score - a.score || a.page_id - b.page_id);
}

/**
 * The hit pages' lengths and the brains' average length: a small brain's pages are all read (the average
 * needs them, and its first sources change it by a large share); a large brain's average is cached.
 */
async function lengthsOf(db: Db, index: LexicalIndex, inBrains: string, kind: string, small: boolean, hits: { page_id: number }[]) {
  if (small) {
    const lengths = await brainPageLengths(db, index, inBrains, kind);
    return { lengths, brainAverage: averageOf(lengths) };
  }
  const brainAverage = await cachedCount(db, `${index}\u0000length\u0000${inBrains}`, true, async () => averageOf(await brainPageLengths(db, index, inBrains, kind)));
  const lengths = await pageLengths(db, index, JSON.stringify([...new Set(hits.map((h) => Number(h.page_id)))]));
  return { lengths, brainAverage };
}

export async function brainFrequency(db: Db, index: LexicalIndex, inBrains: string, term: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    db,
    `SELECT count(*) AS n FROM ${index} CROSS JOIN pages p ON p.id = ${index}.rowid WHERE ${index} MATCH ? AND p.brain_id IN (SELECT value FROM json_each(?))`,
    ftsMatch([term]),
    inBrains,
  );
  return Number(row?.n ?? 0);
}


/** The index's row count and its terms' document frequencies as bm25() reads them, cached briefly per database. */
const indexCaches = new WeakMap<Db, Map<LexicalIndex, { rows: { n: number; at: number }; df: Map<string, { n: number; at: number }> }>>();

export async function indexStats(db: Db, index: LexicalIndex, terms: readonly string[]): Promise<{ rows: number; documentFrequency: Map<string, number> }> {
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

