// The wiki's links around the best pages, both directions: what a page links to, what links to it, and one
// step further through concept pages (source → concept ← source: two sources naming the same thing).
import type { Db } from "../db/client";
import { queryRows } from "../db/plain";

/** How a page was reached from a seed. */
export type LinkKind = "out" | "back" | "concept";

export interface LinkEdge {
  /** The seed the walk started from. */
  via: number;
  /** The page reached. */
  id: number;
  kind: LinkKind;
}

/** Edges read per step: a hub page (a concept named by hundreds of sources) must not read them all. */
const MAX_EDGES = 120;

async function edgesOf(db: Db, ids: readonly number[]): Promise<{ from: number; to: number; dir: "out" | "back"; kind: string }[]> {
  if (ids.length === 0) return [];
  // Seeds in rank order (json_each's key): the best seed's edges come first when the bound cuts.
  const rows = await queryRows<{ from_id: number; to_id: number; dir: string; kind: string }>(
    db,
    `WITH seeds AS (SELECT value AS id, key AS rank FROM json_each(?))
    SELECT * FROM (
      SELECT s.id AS from_id, t.id AS to_id, 'out' AS dir, t.kind, s.rank
      FROM seeds s CROSS JOIN page_links l ON l.from_page_id = s.id
      CROSS JOIN pages t ON t.brain_id = l.brain_id AND t.slug = l.to_slug
      UNION ALL
      SELECT s.id, l.from_page_id, 'back', b.kind, s.rank
      FROM seeds s CROSS JOIN pages f ON f.id = s.id
      CROSS JOIN page_links l ON l.brain_id = f.brain_id AND l.to_slug = f.slug
      CROSS JOIN pages b ON b.id = l.from_page_id
    ) ORDER BY rank LIMIT ${MAX_EDGES}`,
    JSON.stringify(ids),
  );
  return rows.map((r) => ({ from: Number(r.from_id), to: Number(r.to_id), dir: r.dir as "out" | "back", kind: r.kind }));
}

/**
 * Pages one link from the seeds (either direction) and, through a concept page one link away, that concept's
 * other pages. A seed that is itself a concept page (it matched the question) reaches its pages directly.
 */
export async function linkNeighbours(db: Db, seeds: readonly number[]): Promise<LinkEdge[]> {
  const first = await edgesOf(db, seeds);
  const out: LinkEdge[] = first.filter((e) => e.to !== e.from).map((e) => ({ via: e.from, id: e.to, kind: e.dir }));
  const concepts = [...new Set(first.filter((e) => e.kind === "concept").map((e) => e.to))];
  if (concepts.length === 0) return out;
  const viaOf = new Map<number, Set<number>>();
  for (const e of first) if (e.kind === "concept") viaOf.set(e.to, (viaOf.get(e.to) ?? new Set()).add(e.from));
  for (const e of await edgesOf(db, concepts))
    for (const via of viaOf.get(e.from) ?? []) if (e.to !== via && e.kind !== "concept") out.push({ via, id: e.to, kind: "concept" });
  return out;
}
