// Answers follow links: the top pages' wikilink neighbours (a concept page, and the source pages a concept
// page points to) join the candidates when they score on the question themselves, ranked below the page
// that led to them. A bridge question whose two facts sit in two sources then retrieves both.
import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { ftsMatch } from "./terms";

/** Top pages whose links are followed. */
const SEEDS = 3;
/** Neighbours looked at per question (one hop, and a second hop through concept pages). */
const MAX_NEIGHBOURS = 60;
/** A neighbour scores at most this share of the page that led to it. */
export const LINK_DECAY = 0.85;

export interface Scored {
  pageId: number;
  brainId: string;
  score: number;
  lexical: number;
  cosine: number | null;
}

/**
 * `ranked` is the blended list (best first, all candidates); returns it with link neighbours added or
 * lifted: neighbour score = DECAY × seed score × (½ + ½ × its own BM25 relative to the best BM25).
 * Neighbours that match no query term are never added.
 */
export async function expandAlongLinks(db: Db, ranked: Scored[], terms: readonly string[]): Promise<Scored[]> {
  const seeds = ranked.slice(0, SEEDS).filter((s) => s.score > 0);
  if (seeds.length === 0 || terms.length === 0) return ranked;
  const seedIds = JSON.stringify(seeds.map((s) => s.pageId));
  // One hop from the seeds, a second hop only out of concept pages (concept → the sources naming it).
  const neighbours = await db.all<{ id: number; brain_id: string; via: number }>(sql`
    WITH hop1 AS (
      SELECT DISTINCT t.id, t.brain_id, t.kind, l.from_page_id AS via
      FROM json_each(${seedIds}) s CROSS JOIN page_links l ON l.from_page_id = s.value
      CROSS JOIN pages t ON t.brain_id = l.brain_id AND t.slug = l.to_slug
      LIMIT ${MAX_NEIGHBOURS}
    ), hop2 AS (
      SELECT DISTINCT t.id, t.brain_id, h.via
      FROM hop1 h CROSS JOIN page_links l ON l.from_page_id = h.id
      CROSS JOIN pages t ON t.brain_id = l.brain_id AND t.slug = l.to_slug
      WHERE h.kind = 'concept'
      LIMIT ${MAX_NEIGHBOURS}
    )
    SELECT id, brain_id, via FROM hop1 UNION SELECT id, brain_id, via FROM hop2`);
  if (neighbours.length === 0) return ranked;
  const ids = [...new Set(neighbours.map((n) => Number(n.id)))];
  const lexicalRows = await db.all<{ id: number; score: number }>(sql`
    SELECT rowid AS id, -bm25(pages_fts, 3.0, 1.0) AS score FROM pages_fts
    WHERE pages_fts MATCH ${ftsMatch(terms)} AND rowid IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`);
  const own = new Map(lexicalRows.map((r) => [Number(r.id), Number(r.score)]));
  const maxLexical = Math.max(...ranked.map((r) => r.lexical), ...own.values(), 1e-9);
  const seedScore = new Map(seeds.map((s) => [s.pageId, s.score]));
  const byId = new Map(ranked.map((r) => [r.pageId, { ...r }]));
  for (const n of neighbours) {
    const id = Number(n.id);
    const lexical = own.get(id) ?? 0;
    if (lexical <= 0) continue; // it must score on the question itself
    const via = seedScore.get(Number(n.via)) ?? 0;
    const score = LINK_DECAY * via * (0.5 + 0.5 * (lexical / maxLexical));
    const known = byId.get(id);
    if (known) known.score = Math.max(known.score, score);
    else byId.set(id, { pageId: id, brainId: n.brain_id, score, lexical, cosine: null });
  }
  return [...byId.values()].sort((a, b) => b.score - a.score || a.pageId - b.pageId);
}
