/** Retrieval: BM25 (FTS5) + optional vectors, blended per embedding model, over one brain or several. */
export { createRetriever, type BrainScope, type RetrievedPage, type Retrieval, type Retriever } from "./retriever";
export { idf, type TermStats } from "./lexical";
export { CAPITAL_NAMES, joinedPairs, pairsOfTerms, queryTerms, reversedCompounds, splitCompounds, wordsOf, STOPWORDS } from "./terms";
export { termVariants, type TermVariant } from "./variants";
