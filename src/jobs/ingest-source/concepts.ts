// The concept step of ingestion, as plain functions the job (or a batch import) calls: find the source's
// concepts (the model's proposal with Ollama, else the NLP library) and what the brain knows of them, then
// resolve them in the brain and put inline links to the ones that earn a page into the source's pages. Notes
// are never rewritten. The two halves are apart so a batch can find the concepts of its later sources (on
// the extraction threads) while it resolves the earlier ones, in source order. The first half also links the
// pages to the brain's titles they name (`Related:`), on the thread when it can.
import type { Generator } from "../../ai/generator";
import { conceptFacts, extractConcepts, linkConceptsInline, proposeConcepts, resolveConcepts, type NamedInBatch, type ConceptFacts, type ExtractedConcept, type ReadRows, type ResolvedConcept } from "../../concepts";
import type { ExtractPool } from "../../concepts/extract-pool";
import type { Logger } from "../../lib/log";
import type { PageToWrite } from "./write-pages";
import { linkOutward } from "../../links/outward-links";
import type { TitleIndex } from "../../links/title-index";

export interface ConceptPlan {
  concepts: ResolvedConcept[];
  pages: PageToWrite[];
}

export interface FoundConcepts {
  extracted: ExtractedConcept[];
  facts: ConceptFacts;
  /** The source's pages, linked outward when `titles` was given. */
  pages: PageToWrite[];
  /** When linked outward: the last page id whose title was looked at (later ones: findLateLinks). */
  outwardSeen?: number;
}

export interface ConceptDeps {
  read: ReadRows;
  generator: Generator | null;
  log: Logger;
  pool?: ExtractPool;
  /** The pool's order: lower first. */
  priority?: number;
  /** The main connection's title index: source pages (not notes) link to the titles they name. */
  titles?: TitleIndex;
}

type SourceRef = { id: string; brainId: string; type: string };

/** The concepts a source names and the brain's facts about them, as the database stands now. */
export async function findConcepts(deps: ConceptDeps, source: SourceRef, docTitle: string, pages: PageToWrite[], signal: AbortSignal): Promise<FoundConcepts> {
  let extracted: ExtractedConcept[] | null = null;
  let facts: ConceptFacts | null = null;
  let markdowns: string[] | null = null;
  let outwardSeen: number | undefined;
  const ownSlugs = pages.map((p) => p.slug);
  const outward = deps.titles !== undefined && source.type !== "note";
  if (deps.generator) {
    try {
      extracted = await proposeConcepts(deps.generator, pages, docTitle, signal);
    } catch (e) {
      if (signal.aborted) throw e;
      deps.log.warn("model concept proposal failed; extracting with the NLP library", { error: (e as Error).message });
    }
  }
  if (!extracted && deps.pool)
    ({ concepts: extracted, facts, markdowns, outwardSeen } = await deps.pool.extractWithFacts(pages, docTitle, { brainId: source.brainId, sourceId: source.id, ownSlugs, outward }, deps.priority));
  extracted ??= extractConcepts(pages, docTitle);
  facts ??= await conceptFacts(deps.read, source.brainId, source.id, extracted, ownSlugs);
  // (Extraction skips `Related:` lines: linking after it finds the same concepts.)
  if (markdowns) pages = pages.map((p, i) => ({ ...p, markdown: markdowns![i]! }));
  else if (outward) ({ pages, seen: outwardSeen } = await linkOutward(deps.titles!, source.brainId, source.id, pages));
  return { extracted, facts, pages, outwardSeen: outward ? outwardSeen : undefined };
}

/** Resolves what `findConcepts` found, after the batch's earlier sources (`namedInBatch`), and links the pages. */
export function applyConcepts(found: FoundConcepts, source: SourceRef, namedInBatch?: NamedInBatch): ConceptPlan {
  const pages = found.pages;
  const concepts = resolveConcepts(found.facts, found.extracted, pages.map((p) => p.slug), namedInBatch);
  if (source.type === "note") return { concepts, pages };
  const targets = concepts.filter((c) => c.linked).map((c) => ({ slug: c.slug, surfaces: c.surfaces }));
  if (targets.length === 0) return { concepts, pages };
  const inline = new Set<string>();
  const linked = pages.map((p) => {
    const done = linkConceptsInline(p.markdown, targets);
    for (const slug of done.linked) inline.add(slug);
    return { ...p, markdown: done.markdown };
  });
  for (const c of concepts) if (inline.has(c.slug)) c.inline = true;
  return { concepts, pages: linked };
}

export async function planConcepts(
  deps: ConceptDeps,
  source: SourceRef,
  docTitle: string,
  pages: PageToWrite[],
  signal: AbortSignal,
  namedInBatch?: NamedInBatch,
): Promise<ConceptPlan> {
  return applyConcepts(await findConcepts(deps, source, docTitle, pages, signal), source, namedInBatch);
}
