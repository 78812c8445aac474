// The query terms' statistics over the brains asked (issue 58), for what reads IDF outside bm25(): the link
// ranker's coverage features (ranker-features.ts). The server-wide counts (lexical.ts createTermStats) are
// the whole index's, cached for a while: a brain's words weighed by how other brains use them, and by when
// the cache last counted them (an evaluation that adds brains got different weights from run to run).
import type { Db } from "../db/client";
import { queryRows } from "../db/plain";
import { AMONG_CANDIDATES, brainFrequency, cachedCount, cappedPageCount, PER_BRAIN_PAGES } from "./brain-statistics";
import type { TermStats } from "./lexical";
import { ftsMatch } from "./terms";

/** Brains holding this share of the server's pages or more use its statistics: theirs are nearly the same. */
const MOST_OF_THE_SERVER = 0.9;

/**
 * Page count and each term's document frequency over the brains' source pages. Small brains are counted
 * afresh in one statement; a large brain's counts are brainRanking's (the same cache entries); brains holding nearly the
 * whole index answer `server` (no extra work where one brain is the server).
 */
export async function brainTermStats(db: Db, brainIds: readonly string[], terms: readonly string[], server: TermStats): Promise<TermStats> {
  const inBrains = JSON.stringify([...brainIds].sort());
  const small = await cappedPageCount(db, "pages_fts", inBrains);
  if (small >= PER_BRAIN_PAGES) {
    const pageCount = await cachedCount(db, `pages_fts\u0000${inBrains}`, true, async () => {
      const [all] = await queryRows<{ n: number }>(db, "SELECT count(*) AS n FROM pages WHERE brain_id IN (SELECT value FROM json_each(?)) AND kind != 'concept'", inBrains);
      return Number(all?.n ?? 0);
    });
    if (pageCount >= server.pageCount * MOST_OF_THE_SERVER) return server;
    const documentFrequency = new Map<string, number>();
    for (const term of new Set(terms)) documentFrequency.set(term, await cachedCount(db, `pages_fts\u0000${inBrains}\u0000${term}`, true, () => brainFrequency(db, "pages_fts", inBrains, term)));
    return { pageCount, documentFrequency };
  }
  const unique = [...new Set(terms)];
  if (small === 0 || unique.length === 0) return { pageCount: small, documentFrequency: new Map(unique.map((t) => [t, 0])) };
  const counts = await queryRows<{ term: number; n: number }>(
    db,
    `WITH mine AS MATERIALIZED (SELECT id FROM pages WHERE brain_id IN (SELECT value FROM json_each(?)) AND kind != 'concept') ${unique
      .map((_, i) => `SELECT ${i} AS term, count(*) AS n FROM pages_fts WHERE pages_fts MATCH ? AND ${AMONG_CANDIDATES}`)
      .join(" UNION ALL ")}`,
    inBrains,
    ...unique.map((t) => ftsMatch([t])),
  );
  return { pageCount: small, documentFrequency: new Map(counts.map((c) => [unique[Number(c.term)]!, Number(c.n)])) };
}
