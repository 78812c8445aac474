// BM25 over the pages' FTS5 index (title weighs 3, body 1: DESIGN.md "Full text"), limited to some brains.
import type { Db } from "../db/client";
import { queryRows } from "../db/plain";
import { BODY_WEIGHT, brainRanking, MAX_CACHED_TERMS, STATS_TTL_MS, TITLE_WEIGHT, type LexicalIndex } from "./brain-statistics";

export { PER_BRAIN_PAGES, type LexicalIndex } from "./brain-statistics";
import { ftsMatch, MAX_MATCHED_TERMS } from "./terms";

export interface LexicalHit {
  pageId: number;
  brainId: string;
  /** -bm25(): higher is better, 0 means no term matched. */
  score: number;
}


/** Stage one reads this many of the index's best pages over all brains. */
const GLOBAL_TOP = 200;


/**
 * The brains' best pages by BM25 over their own statistics (brain-statistics.ts), or the index's where those are
 * the brains' (they hold nearly all of it). Joining every match to `pages` to filter by brain costs ~3x the bm25
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
  const small = await brainRanking(db, index, brainIds, terms, Math.max(globalTop, limit));
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
  const hits = await ownedHits(db, top, inBrains, limit);
  // The brains' own ranking holds their best: exact.
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

export interface TermStats {
  /** Pages in the pages index (all brains: bm25() ranks with the same global statistics; no concept pages). */
  pageCount: number;
  /** Pages containing each term (after the index's own stemming). */
  documentFrequency: Map<string, number>;
}


/**
 * Document frequencies for IDF weights, cached briefly: they drift slowly and a count over a common term's
 * postings costs milliseconds on a large index.
 */
export function createTermStats(db: Db) {
  const cache = new Map<string, { df: number; at: number }>();
  let pages = { count: 0, at: -Infinity };

  /** The terms not counted within the TTL, counted in one statement (a round trip per term cost more). */
  async function countStale(terms: readonly string[], now: number): Promise<void> {
    const stale = [...new Set(terms)].filter((t) => now - (cache.get(t)?.at ?? -Infinity) >= STATS_TTL_MS);
    if (stale.length === 0) return;
    const counts = await queryRows<{ term: number; n: number }>(
      db,
      stale.map((_, i) => `SELECT ${i} AS term, count(*) AS n FROM pages_fts WHERE pages_fts MATCH ?`).join(" UNION ALL "),
      ...stale.map((t) => ftsMatch([t])),
    );
    if (cache.size + stale.length > MAX_CACHED_TERMS) cache.clear();
    for (const c of counts) cache.set(stale[Number(c.term)]!, { df: Number(c.n), at: now });
  }

  return async function termStats(terms: readonly string[]): Promise<TermStats> {
    const now = Date.now();
    if (now - pages.at >= STATS_TTL_MS) {
      // What pages_fts holds: the pages made from a source (concept pages have none). Counted over the
      // source index (3.7 ms at 100k pages; a filter on kind read every row, 6.7 ms).
      const [row] = await queryRows<{ n: number }>(db, "SELECT count(source_id) AS n FROM pages");
      pages = { count: Number(row?.n ?? 0), at: now };
    }
    await countStale(terms, now);
    return { pageCount: pages.count, documentFrequency: new Map(terms.map((t) => [t, cache.get(t)?.df ?? 0])) };
  };
}

/** Indexes smaller than this match on every term: pruning only pays where postings are long. */
const PRUNE_FROM_PAGES = 2_000;
/** A term in more than this share of pages is matched only when the query has nothing rarer. */
const COMMON_SHARE = 0.1;

/**
 * The terms worth matching on. In a large index a term found in more than a tenth of the pages adds most
 * of the work (its postings) and little of the ranking (IDF ≈ 0.8 against ≈ 7 for a rare term): the same
 * trade as the stopword list, decided by the statistics of the brains searched (a small brain matches every
 * term, however many pages other brains hold).
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

/**
 * The hits of `top` (best first) that the brains own, the first `limit` of them: the owners of the first
 * `limit` pages are looked up first, since where the brains hold most of the index those are all theirs;
 * the rest only when some were not.
 */
async function ownedHits(db: Db, top: { page_id: number; score: number }[], inBrains: string, limit: number): Promise<LexicalHit[]> {
  const hits: LexicalHit[] = [];
  for (const part of [top.slice(0, limit), top.slice(limit)]) {
    if (part.length === 0 || hits.length >= limit) break;
    // `+brain_id` keeps the planner on the primary key: through the brain index it read every page of a
    // 100k-page brain (7.7 ms against 0.9 ms).
    const owners = await queryRows<{ id: number; brain_id: string }>(
      db,
      "SELECT id, brain_id FROM pages WHERE id IN (SELECT value FROM json_each(?)) AND +brain_id IN (SELECT value FROM json_each(?))",
      JSON.stringify(part.map((t) => Number(t.page_id))),
      inBrains,
    );
    const brainOf = new Map(owners.map((o) => [Number(o.id), o.brain_id]));
    for (const t of part) {
      const brainId = brainOf.get(Number(t.page_id));
      if (brainId) hits.push({ pageId: Number(t.page_id), brainId, score: Number(t.score) });
    }
  }
  return hits;
}
