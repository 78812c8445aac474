// Every kind of job the loop runs, in one place: the queue stores them by these names, the job loop
// (src/jobs) registers one handler for each.

/** Read a source (fetch, extract, synthesize its pages, find its concepts) and write it; also an upload's deadline. */
export const INGEST_JOB = "ingest-source";
/** Re-derive the concept pages a brain's new sources marked dirty, and merge its lone concepts. */
export const WIKI_REFRESH_JOB = "wiki-refresh";
/** Embed the pages written without vectors (when an embedding model is configured). */
export const EMBED_PAGES_JOB = "embed-pages";
/** One run of a connector (modules/connectors): list its items, fetch the changed ones, prune the vanished. */
export const CONNECTOR_SYNC_JOB = "connector-sync";
/** Send one webhook delivery (an outbox row, queue/events.ts) to its hook's URL; retried with backoff. */
export const WEBHOOK_DELIVER_JOB = "webhook-deliver";
