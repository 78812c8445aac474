// Concepts: the people, places, organizations and recurring ideas of a brain, gathered across sources
// into concept pages. Extraction (NLP or a model's proposal), merging, inline links, incremental refresh.
export { extractConcepts, proseOf, MAX_CONCEPTS_PER_SOURCE, type ExtractedConcept, type PageText } from "./extract";
export { proposeConcepts } from "./model-concepts";
export { linkConceptsInline, MAX_CONCEPT_LINKS_PER_PAGE } from "../links/inline-links";
export { conceptWriteStatements, resolveConcepts, CENTRAL_SALIENCE, NamedInBatch, type ResolvedConcept } from "./resolve";
export { conceptFacts, type ConceptFacts, type ReadRows } from "./facts";
export { refreshAllDirtyConcepts, refreshConcept, refreshDirtyConcepts } from "./refresh";
export { pageLinkStatements, runBatch } from "../links/page-links";
export { extractiveLead, withLead } from "./lead";
export { conceptCleanupStatements, WIKI_REFRESH_JOB } from "./cleanup";
export { linkLateConcepts, type WrittenConcepts } from "./late-links";
export { mergeLoneConcepts, mergeLoneConceptsIfDue, MERGE_AT_SOURCES } from "./lone";
