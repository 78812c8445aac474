// Link-aware ranking: the query's best pages and the pages the wiki's links reach from them (both directions,
// and through concept pages) are scored by a model over their features (ranker-features.ts), fitted on public
// data by scripts/fit-ranker.ts; the model is data (ranker-weights.json, ranker-model.ts), not typed constants.
import type { Db } from "../db/client";
import { queryRows } from "../db/plain";
import { idf, type TermStats } from "./lexical";
import { linkNeighbours } from "./link-graph";
import { candidateFeatures, type CandidatePage } from "./ranker-features";
import { checkedModel, modelScore, type RankerModel } from "./ranker-model";
import fitted from "./ranker-weights.json";

export interface Scored {
  pageId: number;
  brainId: string;
  score: number;
  lexical: number;
  cosine: number | null;
}

/** Pages whose links are walked (concept pages among them route to their sources). */
const SEEDS = 4;
/** The best pages re-scored with the links' ones; those below keep their order after them. */
const RESCORED = 20;

/** Inbound links counted per candidate: enough to tell a hub, bounded so a hub's count stays one index range. */
const LINKED_BY_BOUND = 200;

/** The committed model, checked against the feature list this code computes. */
export const rankerWeights = (data: RankerModel = fitted as RankerModel): RankerModel => checkedModel(data);

const model = rankerWeights();

export const rankerScore = (features: readonly number[], m: RankerModel = model) => modelScore(m, features);

export interface Explained {
  pageId: number;
  features: number[];
  score: number;
}

/**
 * `ranked` is the blended list (best first, concept pages among it); returns the source pages in the model's
 * order. Each keeps the score of the rank it takes (the blend's distribution, best 1): what answers read as a
 * page's strength stays what the query's words earned, only the order follows the links.
 */
export async function rankAlongLinks(db: Db, ranked: Scored[], terms: readonly string[], stats: TermStats, explain?: Explained[]): Promise<Scored[]> {
  const seeds = ranked.slice(0, SEEDS).filter((s) => s.score > 0).map((s) => s.pageId);
  if (seeds.length === 0 || terms.length === 0) return ranked;
  const edges = await linkNeighbours(db, seeds);
  const head = ranked.slice(0, RESCORED);
  const ids = [...new Set([...head.map((r) => r.pageId), ...edges.map((e) => e.id)])];
  const rows = await queryRows<{ id: number; brain_id: string; kind: string; title: string; markdown: string; linked_by: number }>(
    db,
    `SELECT id, brain_id, kind, title, markdown,
      (SELECT count(*) FROM (SELECT 1 FROM page_links l WHERE l.brain_id = p.brain_id AND l.to_slug = p.slug LIMIT ${LINKED_BY_BOUND})) AS linked_by
    FROM pages p WHERE id IN (SELECT value FROM json_each(?))`,
    JSON.stringify(ids),
  );
  const known = new Map(ranked.map((r) => [r.pageId, r]));
  const kinds = new Map(rows.map((r) => [Number(r.id), r.kind]));
  const sources = head.filter((r) => kinds.get(r.pageId) !== "concept");
  const sourceRank = new Map(sources.map((r, i) => [r.pageId, i]));
  const rankInBrain = ranksInBrain(sources);
  const pages = new Map<number, CandidatePage>(
    rows.map((r) => {
      const id = Number(r.id);
      const written = `${r.title} ${r.markdown}`;
      return [id, { id, brainId: r.brain_id, kind: r.kind, title: r.title, text: written.toLowerCase(), written, score: known.get(id)?.score ?? 0, rank: rankInBrain.get(id) ?? null, linkedBy: Number(r.linked_by) }];
    }),
  );
  const features = candidateFeatures(pages, seeds, edges, terms, terms.map((t) => idf(stats, t)));
  const brainOf = new Map(rows.map((r) => [Number(r.id), r.brain_id]));
  const rescored = firstStaysFirst([...features].map(([id, f]) => ({ id, f, p: rankerScore(f) })).sort((a, b) => b.p - a.p || a.id - b.id), sourceRank);
  if (explain) explain.push(...rescored.map((r) => ({ pageId: r.id, features: r.f, score: r.p })));
  const taken = new Set(rescored.map((r) => r.id));
  const order = [
    ...rescored.map((r) => known.get(r.id) ?? { pageId: r.id, brainId: brainOf.get(r.id)!, score: 0, lexical: 0, cosine: null }),
    ...ranked.filter((r) => !taken.has(r.pageId) && kinds.get(r.pageId) !== "concept" && !pages.has(r.pageId)),
  ];
  const scores = order.map((r) => r.score).sort((a, b) => b - a);
  return order.map((r, i) => ({ ...r, score: scores[i]! }));
}

/**
 * Each page's rank among its own brain's pages: in a brain set, an advisor brain's best page is that brain's
 * first answer, not a page the primary's outrank (the model learnt ranks from single brains).
 */
function ranksInBrain(ranked: readonly Scored[]): Map<number, number> {
  const seen = new Map<string, number>();
  return new Map(
    ranked.map((r) => {
      const rank = seen.get(r.brainId) ?? 0;
      seen.set(r.brainId, rank + 1);
      return [r.pageId, rank];
    }),
  );
}

/**
 * The source page the question's own words rank first stays first: links reorder what follows it. A page
 * reached along a link is evidence beside its seed (both in the top two for a bridge), not instead of it,
 * and a neighbour sharing none of the question's words must not open the answer.
 */
function firstStaysFirst<T extends { id: number }>(rescored: T[], sourceRank: Map<number, number>): T[] {
  const best = [...sourceRank].find(([, rank]) => rank === 0)?.[0];
  const at = rescored.findIndex((r) => r.id === best);
  if (at <= 0) return rescored;
  return [rescored[at]!, ...rescored.slice(0, at), ...rescored.slice(at + 1)];
}
