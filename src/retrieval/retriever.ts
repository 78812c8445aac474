// Retrieval over one brain or several at once: BM25 is the backbone; with an embedding model, vector
// similarity is blended in by a normalized score blend with a per-model weight (blend-weights.ts).
// Several brains: each brain's scores are multiplied by its preference weight (a brain set's primary 1,
// advisors less), so the primary wins ties while a clearly better advisor page still ranks.
import type { Embedder } from "../ai/embedder";
import type { Db } from "../db/client";
import { queryRows } from "../db/plain";
import type { Logger } from "../lib/log";
import { vectorWeightFor } from "./blend-weights";
import { createTermStats, searchLexical, selectiveTerms, type TermStats } from "./lexical";
import { withoutConceptPages } from "./concept-pages";
import { brainTermStats } from "./brain-term-stats";
import { rankAlongLinks, type Explained, type Scored } from "./ranker";
import { MAX_MATCHED_TERMS, pairsOfTerms, queryTerms, reversedCompounds, splitCompounds } from "./terms";
import { termVariants } from "./variants";
import { createVectorIndex, type VectorIndex } from "./vector-index";

export interface BrainScope {
  id: string;
  /** Preference multiplier of this brain's scores; 1 when absent. */
  weight?: number;
}

export interface RetrievedPage {
  pageId: number;
  brainId: string;
  /** The source the page was made from: never empty (concept pages are not results). */
  sourceId: string;
  slug: string;
  title: string;
  markdown: string;
  updatedAt: number;
  /** Blended, preference-weighted score in [0, 1]; what the order is by. */
  score: number;
  /** Raw -bm25() (0 when no term matched). */
  lexical: number;
  /** Cosine with the query, when vectors are on and the page has one. */
  cosine: number | null;
}

export interface Retrieval {
  query: string;
  /** Full-text terms of the query (stopwords removed). */
  terms: string[];
  mode: "lexical" | "hybrid";
  pages: RetrievedPage[];
  /**
   * IDF statistics of `terms` over the brains asked (for evidence scoring): a brain's answers and thin
   * verdicts do not depend on what other brains the server holds (a small brain's are counted at every query).
   */
  stats: TermStats;
}

/** A ranking over the blended candidates (concept pages among them): the fitted one is rankAlongLinks. */
export type Rerank = (db: Db, blended: Scored[], terms: readonly string[], stats: TermStats) => Promise<Scored[]>;

export interface Retriever {
  /** `vectorWeight` overrides the model's tuned blend weight (tuning scripts only). */
  /** `expand: false` ranks by the blend alone (no links); `rerank` replaces the fitted link ranker (evaluation scripts only). */
  /** `concepts: false` leaves concept pages out of the candidates (evaluation scripts only). */
  /** `explain` collects the fitted ranker's features of every page it scored (scripts/fit-ranker.ts). */
  retrieve(input: { brains: BrainScope[]; query: string; limit?: number; vectorWeight?: number; expand?: boolean; rerank?: Rerank; concepts?: boolean; explain?: Explained[] }): Promise<Retrieval>;
  readonly vectors: VectorIndex;
}

/** Candidates taken from each side before blending; the blend then keeps `limit`. */
const CANDIDATES = 50;
/** Concept pages taken from their own index: they route expansion to source pages, they are not results. */
const CONCEPT_CANDIDATES = 5;
const CONCEPT_GLOBAL_TOP = 50;
const DEFAULT_LIMIT = 8;
const QUERY_CACHE_SIZE = 256;

/** `embedder` is read per query: the configured model can be swapped (or fail) without a new retriever. */
export function createRetriever(deps: { db: Db; embedder: () => Embedder | null; log: Logger; vectors?: VectorIndex }): Retriever {
  const { db, log } = deps;
  const vectors = deps.vectors ?? createVectorIndex({ db, log });
  const termStats = createTermStats(db);
  const queryVectors = new Map<string, Float32Array>();
  let warnedUntuned = false;

  async function embedQuery(embedder: Embedder | null, query: string): Promise<Float32Array | null> {
    if (!embedder) return null;
    const key = `${embedder.model}\u0000${query}`;
    const cached = queryVectors.get(key);
    if (cached) return cached;
    try {
      const [vector] = await embedder.embed([query]);
      if (!vector) return null;
      if (queryVectors.size >= QUERY_CACHE_SIZE) queryVectors.delete(queryVectors.keys().next().value!);
      queryVectors.set(key, vector);
      return vector;
    } catch (e) {
      log.warn("query embedding failed; retrieving lexically", { error: (e as Error).message });
      return null;
    }
  }

  async function retrieve({ brains, query, limit = DEFAULT_LIMIT, vectorWeight: weightOverride, expand = true, rerank, concepts = true, explain }: Parameters<Retriever["retrieve"]>[0]): Promise<Retrieval> {
    const embedder = deps.embedder();
    const terms = queryTerms(query);
    const brainIds = [...new Set(brains.map((b) => b.id))];
    const preference = new Map(brains.map((b) => [b.id, b.weight ?? 1]));
    const stats = await termStats(terms);
    // What the brains asked hold decides which terms are matched and how each weighs: a brain ranks and
    // answers the same whatever else the server holds.
    const brainStats = await brainTermStats(db, brainIds, terms, stats);
    // The query's two-word phrases joined ("roll back" → rollback, "shoes on horses" → horseshoes), its compounds
    // split ("backups" → "back up") and its words' other spellings and short forms ("colour", "config") match
    // too, as extra terms of the search only.
    // A long question pairs only the terms it kept; the query's own terms come first when the bound cuts.
    const joined = [...pairsOfTerms(query, terms), ...reversedCompounds(terms)]
      .map((p) => p.joined)
      .concat(splitCompounds(terms).map((c) => c.parts.join(" ")), termVariants(terms).map((v) => v.variant));
    const matched = [...new Set([...selectiveTerms(terms, brainStats), ...joined])].slice(0, MAX_MATCHED_TERMS);
    const [lexical, conceptHits, queryVector] = await Promise.all([
      searchLexical(db, brainIds, matched, CANDIDATES),
      concepts && expand !== false ? searchLexical(db, brainIds, matched, CONCEPT_CANDIDATES, "concept_fts", CONCEPT_GLOBAL_TOP) : [],
      embedQuery(embedder, query),
    ]);

    const candidates = new Map<number, { brainId: string; lexical: number; cosine: number | null }>();
    for (const hit of [...lexical, ...conceptHits]) candidates.set(hit.pageId, { brainId: hit.brainId, lexical: hit.score, cosine: null });

    let mode: Retrieval["mode"] = "lexical";
    if (embedder && queryVector) {
      mode = "hybrid";
      for (const brainId of brainIds) {
        const { hits, snapshot } = await vectors.search(brainId, embedder.model, queryVector, CANDIDATES);
        for (const hit of hits) {
          const known = candidates.get(hit.pageId);
          if (known) known.cosine = hit.cosine;
          else candidates.set(hit.pageId, { brainId, lexical: 0, cosine: hit.cosine });
        }
        if (!snapshot) continue;
        // Lexical hits outside the vector top list still get their true cosine, so the blend is fair to them.
        const missing = [...candidates].filter(([, c]) => c.brainId === brainId && c.cosine === null).map(([id]) => id);
        for (const [id, cosine] of vectors.cosines(snapshot, queryVector, missing)) candidates.get(id)!.cosine = cosine;
      }
    }

    const blended = blend(candidates, mode === "hybrid" ? (weightOverride ?? vectorWeight(embedder!.model)) : 0, preference);
    const expanded = !expand ? blended : rerank ? await rerank(db, blended, terms, brainStats) : await rankAlongLinks(db, blended, terms, brainStats, explain);
    const scored = bestAsOne(await withoutConceptPages(db, expanded));
    const top = scored.slice(0, limit);
    const rows = top.length
      ? await queryRows<{ id: number; brainId: string; sourceId: string | null; slug: string; title: string; markdown: string; updatedAt: number }>(
          db,
          `SELECT id, brain_id AS brainId, source_id AS sourceId, slug, title, markdown, updated_at AS updatedAt
          FROM pages WHERE id IN (SELECT value FROM json_each(?))`,
          JSON.stringify(top.map((t) => t.pageId)),
        )
      : [];
    const byId = new Map(rows.map((r) => [Number(r.id), { ...r, id: Number(r.id), updatedAt: Number(r.updatedAt) }]));
    // A page deleted since it was scored simply drops out. Every page returned was made from one source (concept
    // pages never are: they route to their sources), so citations and `documentId` always name a real source.
    const found = top.flatMap((t) => {
      const row = byId.get(t.pageId);
      return row?.sourceId ? [{ ...t, ...row, sourceId: row.sourceId, pageId: row.id }] : [];
    });
    return {
      query,
      terms,
      mode,
      pages: found.map(({ id: _id, ...p }) => p),
      stats: brainStats,
    };
  }

  function vectorWeight(model: string): number {
    const { weight, tuned } = vectorWeightFor(model);
    if (!tuned && !warnedUntuned) {
      warnedUntuned = true;
      log.warn("no tuned blend weight for this embedding model; using the default", { model, vectorWeight: weight });
    }
    return weight;
  }

  return { retrieve, vectors };
}


/**
 * Normalized score blend: BM25 divided by the best BM25 of the query (so 0 stays "no term matched"), cosine
 * min-max scaled over the candidates; (1−w)·lexical + w·vector, times the brain's preference.
 */
export function blend(
  candidates: Map<number, { brainId: string; lexical: number; cosine: number | null }>,
  vectorWeight: number,
  preference: Map<string, number>,
): Scored[] {
  let maxLexical = 0;
  let minCosine = Infinity;
  let maxCosine = -Infinity;
  for (const c of candidates.values()) {
    maxLexical = Math.max(maxLexical, c.lexical);
    if (c.cosine !== null) {
      minCosine = Math.min(minCosine, c.cosine);
      maxCosine = Math.max(maxCosine, c.cosine);
    }
  }
  const cosineSpan = maxCosine - minCosine;
  const out: Scored[] = [];
  for (const [pageId, c] of candidates) {
    const lexicalPart = maxLexical > 0 ? c.lexical / maxLexical : 0;
    const vectorPart = c.cosine === null ? 0 : cosineSpan > 1e-9 ? (c.cosine - minCosine) / cosineSpan : 1;
    const score = ((1 - vectorWeight) * lexicalPart + vectorWeight * vectorPart) * (preference.get(c.brainId) ?? 1);
    out.push({ pageId, brainId: c.brainId, score, lexical: c.lexical, cosine: c.cosine });
  }
  // Ties (same score) fall back to page id so results are stable across runs.
  return out.sort((a, b) => b.score - a.score || a.pageId - b.pageId);
}

/**
 * Scores over the results only, the best one 1 (as `score` is documented). The blend normalized over every
 * candidate, concept pages among them: a concept page holds the same sentence from each source that names
 * it, so in a small brain of similar documents it outscored them all and the best source page came back at
 * 0.21, which the thin model (a sentence's coverage times its page's score) read as a far-down match: "Who
 * assigns berths?" was thin over four pages that all say "The harbor master assigns berths each morning".
 */
function bestAsOne<T extends { score: number }>(ranked: T[]): T[] {
  const best = ranked[0]?.score ?? 0;
  return best > 0 ? ranked.map((r) => ({ ...r, score: r.score / best })) : ranked;
}
