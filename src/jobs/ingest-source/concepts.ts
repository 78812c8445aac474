// The concept step of ingestion, as plain functions the job (or a batch import) calls: find the source's
// concepts (the model's proposal with Ollama, else the NLP library), resolve them in the brain, and put
// inline links to the ones that earn a page into the source's pages. Notes are never rewritten.
import type { Generator } from "../../ai/generator";
import { conceptFacts, extractConcepts, linkConceptsInline, proposeConcepts, resolveConcepts, type ConceptFacts, type ExtractedConcept, type ReadRows, type ResolvedConcept } from "../../concepts";
import type { ExtractPool } from "../../concepts/extract-pool";
import type { Logger } from "../../lib/log";
import type { PageToWrite } from "./write-pages";

export interface ConceptPlan {
  concepts: ResolvedConcept[];
  pages: PageToWrite[];
}

export async function planConcepts(
  deps: { read: ReadRows; generator: Generator | null; log: Logger; pool?: ExtractPool },
  source: { id: string; brainId: string; type: string },
  docTitle: string,
  pages: PageToWrite[],
  signal: AbortSignal,
  namedInBatch?: Map<string, ResolvedConcept>,
): Promise<ConceptPlan> {
  let extracted: ExtractedConcept[] | null = null;
  let facts: ConceptFacts | null = null;
  const ownSlugs = pages.map((p) => p.slug);
  if (deps.generator) {
    try {
      extracted = await proposeConcepts(deps.generator, pages, docTitle, signal);
    } catch (e) {
      if (signal.aborted) throw e;
      deps.log.warn("model concept proposal failed; extracting with the NLP library", { error: (e as Error).message });
    }
  }
  if (!extracted && deps.pool) ({ concepts: extracted, facts } = await deps.pool.extractWithFacts(pages, docTitle, { brainId: source.brainId, sourceId: source.id, ownSlugs }));
  extracted ??= extractConcepts(pages, docTitle);
  facts ??= await conceptFacts(deps.read, source.brainId, source.id, extracted, ownSlugs);
  const concepts = resolveConcepts(facts, extracted, ownSlugs, namedInBatch);
  if (source.type === "note") return { concepts, pages };
  const targets = concepts.filter((c) => c.linked).map((c) => ({ slug: c.slug, surfaces: c.surfaces }));
  const linked = targets.length ? pages.map((p) => ({ ...p, markdown: linkConceptsInline(p.markdown, targets).markdown })) : pages;
  return { concepts, pages: linked };
}
