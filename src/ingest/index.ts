/** The ingest adapter: SSRF-safe link fetching, document extraction and deterministic wiki synthesis. */
export {
  classifyAddress,
  classifyHostname,
  isAllowListed,
  normalizeHostname,
  parseAllowList,
  type AddressClassification,
  type AllowEntry,
  type AllowList,
} from "./address-policy.ts";
export { IngestError, isIngestError, type IngestErrorCode } from "./errors.ts";
export { extractDocument, type ExtractInput } from "./extract.ts";
export { precheckUpload } from "./precheck.ts";
export { DEFAULT_EXTRACTION_BUDGET, extractionBudgetOf, type ExtractionBudget, type ExtractionLimits } from "./budget.ts";
export { createDocumentReader, type DocumentReader } from "./extract-thread.ts";
export { SAFE_FETCH_DEFAULTS, safeFetch, type Resolver, type SafeFetchOptions, type SafeFetchResult } from "./safe-fetch.ts";
export { safePost, vetPostTarget, type SafePostOptions, type SafePostResult } from "./safe-post.ts";
export {
  DEFAULT_MAX_PAGE_CHARS,
  appendRelatedLinks,
  extractWikiLinks,
  linkRelatedPages,
  slugify,
  synthesizePages,
  uniqueSlug,
  type LinkablePage,
  type SynthesizedPage,
  type SynthesizeOptions,
} from "./synthesize.ts";
export type { DocumentSource, ExtractedDocument } from "./types.ts";
