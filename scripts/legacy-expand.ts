// The link expansion before the fitted ranker (src/retrieval/ranker.ts), kept for scripts/eval-multihop.ts's
// "old ranking" column only. Answers followed links: the top pages' wikilink neighbours (a concept page, and the source pages a named
// concept points to) join the candidates when they add what the page that led to them lacks: a bridge
// question's second fact sits on a page that matches the question terms the first page does not.
import type { Db } from "../src/db/client";
import { queryRows } from "../src/db/plain";
import { idf, type TermStats } from "../src/retrieval/lexical";
import { escapeRegExp } from "../src/lib/regexp";

/** Top pages whose links are followed. */
const SEEDS = 3;
/** Neighbours looked at per question (one hop, and a second hop through named concept pages). */
const MAX_NEIGHBOURS = 60;
/** A neighbour scores at most this share of the page that led to it: the lowest share that keeps multi-hop
 * recall on the calibration half of eval-multihop, as it disturbs single-hop questions least. */
export const LINK_DECAY = 0.6;
/** What a source about a name the seed gives earns when it covers no question word (a share of the seed's score). */
const NAMED_BRIDGE = 0.85;

export interface Scored {
  pageId: number;
  brainId: string;
  score: number;
  lexical: number;
  cosine: number | null;
}

/** Crude suffix folding, enough to match a question's "designed"/"born" against a page's words. */
const fold = (w: string) => w.replace(/(?:ing|ed|es|s)$/, "");


/**
 * Whether a lower-cased text has a word that folds to `folded`. Scans for the stem and its suffixes only:
 * splitting and folding every word of ~60 pages per question cost more than the SQL of the expansion.
 */
function wordFinder(folded: string): (text: string) => boolean {
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(folded)}[\\p{L}\\p{N}]*`, "gu");
  return (text) => {
    for (const m of text.matchAll(pattern)) if (m[0] && fold(m[0]) === folded) return true;
    return false;
  };
}

/**
 * `ranked` is the blended list (best first); returns it with link neighbours added or lifted. A neighbour
 * reached from seed s earns s.score × (IDF share of the terms s lacks that the neighbour has); paths
 * combine as a noisy-or, times `decay`. A concept page that led to a better source ranks below it.
 */
export async function expandAlongLinks(db: Db, ranked: Scored[], terms: readonly string[], stats: TermStats, decay = LINK_DECAY): Promise<Scored[]> {
  const seeds = ranked.slice(0, SEEDS).filter((s) => s.score > 0);
  if (seeds.length === 0 || terms.length < 2) return ranked;
  const seedIds = JSON.stringify(seeds.map((s) => s.pageId));
  // One hop from the seeds; a second hop (source → named concept → source: the bridge) only out of concept
  // pages titled like names: a common noun phrase ("town council") links too many pages to be a bridge.
  // The best seed's neighbours come first when the bound cuts. Each (page, seed) pair once; `hop` 2 when the
  // page is reached through a name.
  const neighbours = await queryRows<{ id: number; brain_id: string; via: number; hop: number }>(
    db,
    `WITH hop1 AS (
      SELECT t.id, t.brain_id, t.kind, t.title, l.from_page_id AS via, s.key AS rank, f.kind AS via_kind
      FROM json_each(?) s CROSS JOIN page_links l ON l.from_page_id = s.value
      CROSS JOIN pages f ON f.id = s.value
      CROSS JOIN pages t ON t.brain_id = l.brain_id AND t.slug = l.to_slug
      ORDER BY s.key LIMIT ${MAX_NEIGHBOURS}
    ), hop2 AS (
      SELECT t.id, t.brain_id, h.via
      FROM hop1 h CROSS JOIN page_links l ON l.from_page_id = h.id
      CROSS JOIN pages t ON t.brain_id = l.brain_id AND t.slug = l.to_slug
      WHERE h.kind = 'concept' AND h.via_kind != 'concept' AND substr(h.title, 1, 1) != lower(substr(h.title, 1, 1))
      ORDER BY h.rank LIMIT ${MAX_NEIGHBOURS}
    )
    SELECT id, brain_id, via, max(hop) AS hop FROM (SELECT id, brain_id, via, 1 AS hop FROM hop1 UNION ALL SELECT id, brain_id, via, 2 AS hop FROM hop2)
    GROUP BY id, brain_id, via`,
    seedIds,
  );
  if (neighbours.length === 0) return ranked;
  const ids = [...new Set([...seeds.map((s) => s.pageId), ...neighbours.map((n) => Number(n.id))])];
  const texts = await queryRows<{ id: number; kind: string; title: string; markdown: string }>(
    db,
    "SELECT id, kind, title, markdown FROM pages WHERE id IN (SELECT value FROM json_each(?))",
    JSON.stringify(ids),
  );
  const folded = terms.map(fold);
  const weights = terms.map((t) => idf(stats, t));
  const finders = folded.map(wordFinder);
  const covers = new Map(
    texts.map((p) => {
      const text = `${p.title} ${p.markdown}`.toLowerCase();
      return [Number(p.id), finders.map((has) => has(text))] as const;
    }),
  );
  const kindOf = new Map(texts.map((p) => [Number(p.id), p.kind]));
  // Terms no page around covers ("architect" when pages say "designed by") cannot be brought by a link.
  const coverable = folded.map((_, i) => [...covers.values()].some((c) => c[i]));

  const seedById = new Map(seeds.map((s) => [s.pageId, s]));
  const missing = new Map<number, number>(); // id → product of (1 − contribution) over its paths
  const viasOf = new Map<number, Set<number>>();
  /** The second hop of a bridge ranks right below the seed that names its subject (not below the last seed). */
  const bridgeFloor = new Map<number, number>();
  for (const n of neighbours) {
    const id = Number(n.id);
    const seed = seedById.get(Number(n.via));
    if (!seed || seedById.has(id)) continue;
    const seedCovers = covers.get(seed.pageId);
    const neighbourCovers = covers.get(id);
    if (!seedCovers || !neighbourCovers) continue;
    let lacking = 0;
    let added = 0;
    let uncovered = 0;
    seedCovers.forEach((has, i) => {
      if (has) return;
      if (!coverable[i]) uncovered += weights[i]!;
      else {
        lacking += weights[i]!;
        if (neighbourCovers[i]) added += weights[i]!;
      }
    });
    // It must bring something the question asks and the seed lacks; or be a source about a name the seed
    // gives (through that name's concept page) while the seed lacks a question word: the second hop of a
    // bridge, which earns NAMED_BRIDGE whatever words it shares with the question ("where does the engineer
    // of X come from" / "… was born in Crowmarsh") or other pages around hold ("engineer" in other designers'
    // pages: whether such a word counted as coverable, and so whether the bridge was linked in, depended on
    // which of several tied pages became seeds, which changes with the order the wiki was built in).
    const bridged = Number(n.hop) === 2 && lacking + uncovered > 0;
    if (added <= 0 && !bridged) continue;
    const contribution = seed.score * Math.max(bridged ? NAMED_BRIDGE : 0, lacking > 0 ? added / lacking : 0);
    missing.set(id, (missing.get(id) ?? 1) * (1 - Math.min(contribution, 0.999)));
    viasOf.set(id, (viasOf.get(id) ?? new Set()).add(seed.pageId));
    if (bridged) bridgeFloor.set(id, Math.max(bridgeFloor.get(id) ?? 0, seed.score * 0.99));
  }
  const byId = new Map(ranked.map((r) => [r.pageId, { ...r }]));
  const brainOf = new Map(neighbours.map((n) => [Number(n.id), n.brain_id]));
  const bestVia = new Map<number, number>();
  // Link neighbours join below the direct hits that led to them (never above the last seed): a single-hop
  // question keeps its evidence (measured on ClapNQ: gold cited 84.7% when neighbours could outrank it). The
  // second hop of a bridge only below the seed naming its subject: pages tied with the last seed by shared
  // words alone ("Harrow Dam 3" for "which engineer designed Yelland Dam") kept it out of the top five.
  const floor = seeds.at(-1)!.score * 0.99;
  for (const [id, miss] of missing) {
    const score = Math.min(decay * (1 - miss), bridgeFloor.get(id) ?? floor);
    const known = byId.get(id);
    if (known) known.score = Math.max(known.score, score);
    else byId.set(id, { pageId: id, brainId: brainOf.get(id)!, score, lexical: 0, cosine: null });
    for (const via of viasOf.get(id) ?? []) bestVia.set(via, Math.max(bestVia.get(via) ?? 0, byId.get(id)!.score));
  }
  // A concept page is a hub: its sentences are copies from its sources. Below the best of its own source
  // pages that score on the question (or that a link brought in), so answers quote and cite the sources.
  for (const seed of seeds) {
    const hub = byId.get(seed.pageId);
    if (!hub || kindOf.get(seed.pageId) !== "concept") continue;
    let best = bestVia.get(seed.pageId) ?? 0;
    for (const n of neighbours) {
      if (Number(n.via) !== seed.pageId || kindOf.get(Number(n.id)) === "concept") continue;
      best = Math.max(best, byId.get(Number(n.id))?.score ?? 0);
    }
    if (best > 0) hub.score = Math.min(hub.score, best * 0.99);
  }
  return [...byId.values()].sort((a, b) => b.score - a.score || a.pageId - b.pageId);
}

