// BM25 over the pages' FTS5 index (title weighs 3, body 1: DESIGN.md "Full text"), limited to some brains.
import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { ftsMatch } from "./terms";

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
 * The brains' best pages by BM25. Joining every match to `pages` to filter by brain costs ~3x the bm25
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
  const match = ftsMatch(terms);
  const fts = sql.raw(index);
  const inBrains = sql.join(brainIds.map((id) => sql`${id}`), sql`, `);
  const top = await db.all<{ page_id: number; score: number }>(sql`
    SELECT rowid AS page_id, -bm25(${fts}, ${TITLE_WEIGHT}, ${BODY_WEIGHT}) AS score
    FROM ${fts} WHERE ${fts} MATCH ${match} ORDER BY score DESC LIMIT ${Math.max(globalTop, limit)}`);
  if (top.length === 0) return [];
  // `+brain_id` keeps the planner on the primary key: through the brain index it read every page of a
  // 100k-page brain (7.7 ms against 0.9 ms).
  const owners = await db.all<{ id: number; brain_id: string }>(sql`
    SELECT id, brain_id FROM pages WHERE id IN (${sql.join(top.map((t) => sql`${t.page_id}`), sql`, `)}) AND +brain_id IN (${inBrains})`);
  const brainOf = new Map(owners.map((o) => [Number(o.id), o.brain_id]));
  const hits = top.flatMap((t) => {
    const brainId = brainOf.get(Number(t.page_id));
    return brainId ? [{ pageId: Number(t.page_id), brainId, score: Number(t.score) }] : [];
  });
  if (hits.length >= limit || top.length < Math.max(globalTop, limit)) return hits.slice(0, limit);
  const rows = await db.all<{ page_id: number; brain_id: string; score: number }>(sql`
    SELECT p.id AS page_id, p.brain_id, -bm25(${fts}, ${TITLE_WEIGHT}, ${BODY_WEIGHT}) AS score
    FROM ${fts} CROSS JOIN pages p ON p.id = ${fts}.rowid
    WHERE ${fts} MATCH ${match} AND p.brain_id IN (${inBrains})
    ORDER BY score DESC LIMIT ${limit}`);
  return rows.map((r) => ({ pageId: Number(r.page_id), brainId: r.brain_id, score: Number(r.score) }));
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
    const [row] = await db.all<{ n: number }>(sql`SELECT count(*) AS n FROM pages_fts WHERE pages_fts MATCH ${ftsMatch([term])}`);
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
      const [row] = await db.all<{ n: number }>(sql`SELECT count(source_id) AS n FROM pages`);
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
