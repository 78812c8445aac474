// The wiki as a graph: pages are nodes, wikilinks edges. Without a centre, the `limit` best-connected
// pages and the edges among them; with `around`, that page and its neighbours up to `depth` hops.
import { sql } from "drizzle-orm";
import { cachedRead } from "../../db/read-cache";
import type { Db } from "../../db/client";
import type { PageKind } from "./service";
import { findPageRow, kindLiteral } from "./service";

export const DEFAULT_GRAPH_LIMIT = 500;
export const MAX_GRAPH_LIMIT = 5000;

export interface GraphNode {
  slug: string;
  title: string;
  kind: PageKind;
  degree: number;
}
export interface Graph {
  nodes: GraphNode[];
  edges: { from: string; to: string }[];
  truncated: boolean;
}

const KINDS: readonly PageKind[] = ["source", "note", "concept"];

type NodeRow = GraphNode & { id: number };

/** A page's degree: links from it + links to its slug (two index counts). */
const DEGREE = sql`((SELECT count(*) FROM page_links l WHERE l.from_page_id = p.id)
  + (SELECT count(*) FROM page_links l WHERE l.brain_id = p.brain_id AND l.to_slug = p.slug))`;

/**
 * The `take` best-connected pages (degree, then slug), of one kind or all, counted when read: ~190 ms at 100k
 * pages (scripts/bench-graph.ts), reused while the brain is unchanged (cachedRead). Keeping degrees by
 * triggers instead (migration 0015, dropped by 0016) made the graph ~7 ms but cost every link written an
 * index move on two pages: 15% of the import rate at 20k sources, paid on the hot path for a rare read.
 */
function bestConnected(db: Db, brainId: string, take: number, kind?: PageKind) {
  return cachedRead(db, `graph:${brainId}:${take}:${kind ?? ""}`, () =>
    db.all<NodeRow>(sql`
      SELECT p.id, p.slug, p.title, p.kind, ${DEGREE} AS degree FROM pages p
      WHERE p.brain_id = ${brainId} ${kind ? sql`AND p.kind = ${kindLiteral(kind)}` : sql``}
      ORDER BY degree DESC, p.slug LIMIT ${take}`),
  );
}

export async function getGraph(db: Db, brainId: string, opts: { around?: string; depth?: number; limit?: number; kind?: PageKind }): Promise<Graph> {
  const limit = Math.min(Math.max(opts.limit ?? DEFAULT_GRAPH_LIMIT, 1), MAX_GRAPH_LIMIT);
  let nodes: NodeRow[];
  let truncated = false;
  if (opts.around === undefined) {
    const rows = await bestConnected(db, brainId, limit + 1, opts.kind);
    truncated = rows.length > limit;
    nodes = rows.slice(0, limit);
  } else {
    const centre = await findPageRow(db, brainId, opts.around);
    const depth = Math.min(Math.max(opts.depth ?? 1, 1), 3);
    const seen = new Map<number, string>([[centre.id, centre.slug]]);
    let frontier = [{ id: centre.id, slug: centre.slug }];
    for (let d = 0; d < depth && frontier.length && !truncated; d++) {
      const ids = JSON.stringify(frontier.map((f) => f.id));
      const slugs = JSON.stringify(frontier.map((f) => f.slug));
      const next = await db.all<{ id: number; slug: string }>(sql`
        SELECT t.id, t.slug FROM page_links l CROSS JOIN pages t ON t.brain_id = l.brain_id AND t.slug = l.to_slug
        WHERE l.from_page_id IN (SELECT value FROM json_each(${ids}))
        UNION
        SELECT p.id, p.slug FROM page_links l CROSS JOIN pages p ON p.id = l.from_page_id
        WHERE l.brain_id = ${brainId} AND l.to_slug IN (SELECT value FROM json_each(${slugs}))
        LIMIT ${limit * 2}`);
      frontier = [];
      for (const n of next) {
        if (seen.has(n.id)) continue;
        if (seen.size >= limit) {
          truncated = true;
          break;
        }
        seen.set(n.id, n.slug);
        frontier.push(n);
      }
    }
    nodes = await db.all<NodeRow>(sql`
      SELECT p.id, p.slug, p.title, p.kind, ${DEGREE} AS degree FROM pages p
      WHERE p.id IN (SELECT value FROM json_each(${JSON.stringify([...seen.keys()])}))
        ${opts.kind ? sql`AND (p.kind = ${opts.kind} OR p.id = ${centre.id})` : sql``}
      ORDER BY degree DESC, p.slug`);
  }
  const slugs = new Set(nodes.map((n) => n.slug));
  const edgeRows = nodes.length
    ? await db.all<{ from_slug: string; to_slug: string }>(sql`
        SELECT p.slug AS from_slug, l.to_slug FROM page_links l CROSS JOIN pages p ON p.id = l.from_page_id
        WHERE l.from_page_id IN (SELECT value FROM json_each(${JSON.stringify(nodes.map((n) => n.id))}))`)
    : [];
  const edges = edgeRows.filter((e) => slugs.has(e.to_slug) && e.to_slug !== e.from_slug).map((e) => ({ from: e.from_slug, to: e.to_slug }));
  return { nodes: nodes.map(({ id: _id, ...n }) => ({ ...n, degree: Number(n.degree) })), edges, truncated };
}
