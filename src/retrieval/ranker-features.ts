// What the fitted ranker (ranker.ts) reads of each candidate page: its own match of the question, how the
// wiki's links reach it from the best pages, and what it adds to them. Every feature is in [0, 1].
import { escapeRegExp } from "../lib/regexp";
import type { LinkEdge } from "./link-graph";

/** The feature order of the weights file (ranker-weights.json); scripts/fit-ranker.ts writes it. */
export const FEATURES = ["lexical", "top", "outLink", "backLink", "viaConcept", "queryConcept", "adds", "coverage", "title", "mention", "novel", "hub"] as const;
export type FeatureName = (typeof FEATURES)[number];

export interface CandidatePage {
  id: number;
  /** A brain set's pages are weighed against their own brain's best page. */
  brainId: string;
  kind: string;
  title: string;
  /** Title and body, lower-cased. */
  text: string;
  /** Title and body as written: where a name is told from the common word it may also be ("configuration"). */
  written: string;
  /** Blended score over the query's best (0 when only a link reached it). */
  score: number;
  /** 0-based rank among its brain's blended source pages (a brain set ranks each brain's apart); null when only a link reached it. */
  rank: number | null;
  /** Pages linking to it (counted up to a bound): a page a whole brain links to is seldom what one question asks. */
  linkedBy: number;
}

/** Where the hub feature is half way: a page this many pages link to is a hub of its brain. */
const HUB_HALF = 20;

/** Crude suffix folding, enough to match a question's "designed"/"born" against a page's words. */
const fold = (w: string) => w.replace(/(?:ing|ed|es|s)$/, "");

/** Whether a lower-cased text has a word that folds to `folded` (scans for the stem and its suffixes only). */
function wordFinder(folded: string): (text: string) => boolean {
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(folded)}[\\p{L}\\p{N}]*`, "gu");
  return (text) => {
    for (const m of text.matchAll(pattern)) if (m[0] && fold(m[0]) === folded) return true;
    return false;
  };
}

/** A page's title as a name another page can mention (as written, its parenthesised qualifier dropped). */
function writtenName(title: string): string | null {
  const name = title.replace(/\s*\([^)]*\)\s*$/, "").trim();
  return name.length >= 3 ? name : null;
}

/**
 * Whether a text names a page's title: a mention is the name written as a name. A title with a capital is not
 * named by the same letters all in lower case: "checks the configuration" is the common word a page titled
 * "Configuration" also is (the name of a person, place or work keeps a capital: "the Beatles" names "The Beatles").
 */
function nameFinder(title: string): ((text: string) => boolean) | null {
  const name = writtenName(title);
  if (!name) return null;
  const pattern = new RegExp(escapeRegExp(name), "giu");
  const cased = name !== name.toLowerCase();
  return (text) => {
    for (const m of text.matchAll(pattern)) if (!cased || m[0] !== m[0].toLowerCase()) return true;
    return false;
  };
}

/** The same, lower-cased: how two pages' titles are told to be one name. */
const mentionName = (title: string) => writtenName(title)?.toLowerCase() ?? null;

const sameName = (a: CandidatePage, b: CandidatePage) => {
  const name = mentionName(a.title);
  return name !== null && name === mentionName(b.title);
};

/**
 * The features of every non-concept page in `pages`: `seeds` are the pages the links were walked from (best
 * first), `edges` what the walk reached, `terms` the question's terms with their IDF weights.
 */
export function candidateFeatures(pages: Map<number, CandidatePage>, seeds: readonly number[], edges: readonly LinkEdge[], terms: readonly string[], weights: readonly number[]): Map<number, number[]> {
  const total = weights.reduce((a, b) => a + b, 0) || 1;
  const finders = terms.map((t) => wordFinder(fold(t)));
  const covers = new Map([...pages].map(([id, p]) => [id, finders.map((has) => has(p.text))]));
  const titleCovers = new Map([...pages].map(([id, p]) => [id, finders.map((has) => has(p.title.toLowerCase()))]));
  const share = (flags: boolean[]) => flags.reduce((sum, on, i) => sum + (on ? weights[i]! : 0), 0) / total;
  const sourceSeeds = seeds.filter((s) => pages.get(s)?.kind !== "concept");
  // Each brain's best source page: what its other pages are weighed against (a page saying only what it says
  // adds nothing). Per brain: in a brain set, an advisor's best page is its own answer, not the primary's echo.
  const best = new Map<string, CandidatePage>();
  for (const p of pages.values()) if (p.rank !== null && p.rank < (best.get(p.brainId)?.rank ?? Infinity)) best.set(p.brainId, p);
  const novel = (page: CandidatePage) => {
    const top = best.get(page.brainId);
    const topCovers = top && top.id !== page.id ? covers.get(top.id)! : null;
    return share(covers.get(page.id)!.map((has, i) => has && !topCovers?.[i]));
  };

  const out = new Map<number, number[]>();
  for (const [id, page] of pages) {
    if (page.kind === "concept") continue;
    const f: Record<FeatureName, number> = {
      lexical: page.score,
      top: page.rank === null ? 0 : 1 / (1 + page.rank),
      outLink: 0,
      backLink: 0,
      viaConcept: 0,
      queryConcept: 0,
      adds: 0,
      coverage: share(covers.get(id)!),
      title: share(titleCovers.get(id)!),
      mention: 0,
      novel: novel(page),
      hub: page.linkedBy / (page.linkedBy + HUB_HALF),
    };
    const names = nameFinder(page.title);
    for (const seed of sourceSeeds) {
      if (seed === id || !names) continue;
      const s = pages.get(seed)!;
      if (names(s.written) && !s.title.toLowerCase().includes(mentionName(page.title)!)) f.mention = Math.max(f.mention, s.score);
    }
    out.set(id, FEATURES.map((n) => f[n]));
  }
  for (const e of edges) {
    const vector = out.get(e.id);
    const seed = pages.get(e.via);
    if (!vector || !seed || e.id === e.via) continue;
    // Pages of one name (a long article's sections, a source split in parts) link to each other by that name:
    // a link between them joins parts of one thing, not a hop to another, and says nothing of relevance.
    if (sameName(seed, pages.get(e.id)!)) continue;
    const at = (n: FeatureName) => FEATURES.indexOf(n);
    const kind: FeatureName = seed.kind === "concept" ? "queryConcept" : e.kind === "out" ? "outLink" : e.kind === "back" ? "backLink" : "viaConcept";
    vector[at(kind)] = Math.max(vector[at(kind)]!, seed.score);
    // What the question asks that the seed lacks and this page says: a bridge's second hop.
    const seedCovers = covers.get(e.via)!;
    const mine = covers.get(e.id)!;
    vector[at("adds")] = Math.max(vector[at("adds")]!, share(mine.map((has, i) => has && !seedCovers[i])) * seed.score);
  }
  return out;
}
