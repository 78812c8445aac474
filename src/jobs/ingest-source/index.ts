// The ingest-source job: document → wiki pages → vectors → one guarded write → links with the brain.
// Jobs come in batches (runBatch): each source is prepared on its own, then the batch's pages are written
// in a few transactions (write-batch.ts), so a bulk import pays a commit and an FTS flush per 16 sources.
import { eq, inArray, sql } from "drizzle-orm";
import type { AppContext } from "../../context";
import { sources } from "../../db/schema";
import { isIngestError } from "../../ingest";
import type { Source } from "../../db/schema";
import { INGEST_JOB, WIKI_REFRESH_JOB } from "../../queue/kinds";
import { DeferJobError, PermanentJobError, type JobHandler } from "../loop";
import { enqueue, type Job } from "../../queue";
import { loadDocument, type SourceDocument } from "./document";
import { synthesize } from "./synthesis";
import { writeBatch, type FindInwardLinks, type PreparedWrite } from "./write-batch";
import { findLateLinks } from "../../links/inward-links";
import { allocateSlugs, titleIndexFor } from "./write-pages";
import { InFlightSlugs, type BatchSlugs } from "./in-flight-slugs";
import { applyConcepts, findConcepts, type FoundConcepts } from "./concepts";
import { linkLateConcepts, mergeLoneConceptsIfDue, refreshAllDirtyConcepts, NamedInBatch } from "../../concepts";
import { readRowsOf } from "../../db/read-rows";
import { createExtractPool } from "../../concepts/extract-pool";
import { timeSlicer } from "../../lib/time-slice";
import { createDocumentReader, extractionBudgetOf } from "../../ingest";
import { readMarked } from "./extraction-marks";
import { eventStatements } from "../../queue/events";
import { runBatch as runStatements, stmt } from "../../db/plain";
import type { Embedder } from "../../ai/embedder";
import { RemoteEmbedderError } from "../../ai/remote-embedder";
import type { Logger } from "../../lib/log";
import { scheduleEmbedding } from "../embed-pages";

/**
 * The pages' vectors, or none when the embedding server fails (down, refusing, wrong dimension): the pages
 * are written lexical now and embedded later, rather than the source failing for want of a vector.
 */
async function vectorsOrLater(embedder: Embedder, pages: { title: string; markdown: string }[], log: Logger): Promise<Float32Array[] | null> {
  try {
    return await embedder.embed(pages.map((p) => `${p.title}\n\n${p.markdown}`));
  } catch (e) {
    if (!(e instanceof RemoteEmbedderError)) throw e;
    log.warn("embedding server failed; pages are written without vectors and embedded later", { error: e.message });
    return null;
  }
}

/** How often to look for a file uploaded straight to S3. */
const AWAIT_UPLOAD_POLL_MS = 2000;
/** A file source's error when its upload URL expired unused. */
export const UPLOAD_NEVER_ARRIVED = "The upload never arrived: its upload URL expired unused";
/** Sources per batch: big enough to amortize the commit, small enough to keep each write short. */
export const INGEST_BATCH = 64;
/** Link and file sources of one batch fetched at once. */
const FETCH_PARALLEL = 4;

/** A source's first half: its pages (slugs given) with their outward links and concepts being found. */
interface Draft {
  source: Source;
  doc: SourceDocument;
  found: Promise<FoundConcepts>;
}

/** Ingest errors a retry cannot fix become permanent job errors. */
async function ingestErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    if (isIngestError(e) && !e.retryable) throw new PermanentJobError(e.message);
    throw e;
  }
}

/** What the sources of one batch in one brain share before anything is written. */
interface BrainBatch {
  /** Slugs given to sources of this batch and of every other batch of this process still in flight. */
  reserved: BatchSlugs;
  /** Concepts earlier sources of the batch named: a second source naming one earns it a page. */
  named: NamedInBatch;
  /** The job batch's place in claim order: the extraction threads serve older batches first (extract-pool.ts). */
  order: number;
}

export function ingestSourceHandler(ctx: AppContext): JobHandler {
  const { db, log } = ctx;
  // Job batches run concurrently (BRAINBOX_JOB_CONCURRENCY): a slug planned by one and not yet written must
  // not be planned by another, or the later write fails and its source waits for a retry.
  const inFlight = new InFlightSlugs();
  let batchesStarted = 0;
  const extractPool = createExtractPool(ctx.config.nlpThreads, log, undefined, ctx.database.file);
  const read = readRowsOf(db);
  /** Late title links (findLateLinks) read on an extraction thread; here for a remote database or when no thread can. */
  const findInwardFor =
    (priority: number): FindInwardLinks =>
    async (brainId, sourceId, pages, outwardSeen) =>
      (await extractPool.inwardLinks({ brainId, sourceId, pages, outwardSeen }, priority).catch(() => null)) ??
      (await findLateLinks(read, titleIndexFor(db), brainId, sourceId, pages, outwardSeen));
  const docDeps = {
    storage: ctx.storage,
    allowHosts: ctx.config.fetchAllowHosts,
    fetchTimeoutMs: ctx.config.fetchTimeoutMs,
    fetchMaxBytes: ctx.config.fetchMaxBytes,
    reader: createDocumentReader(extractionBudgetOf(ctx.config), log),
  };

  /**
   * A source's first half on this thread: its document, drafts and slugs; then its outward links and concepts
   * are looked for (on an extraction thread) without waiting. Throws what `run` would.
   */
  async function draft(job: Job, source: Source, batch: BrainBatch, signal: AbortSignal): Promise<Draft> {
    if (source.type === "file" && !source.uploadedAt) {
      const until = Number(job.payload?.awaitUploadUntil ?? 0);
      if (!(await ctx.storage.exists(source.storageKey!))) {
        if (Date.now() < until) throw new DeferJobError(AWAIT_UPLOAD_POLL_MS);
        throw new PermanentJobError(UPLOAD_NEVER_ARRIVED);
      }
      await db.update(sources).set({ uploadedAt: Date.now(), status: "processing" }).where(eq(sources.id, source.id));
    }
    return ingestErrors(async () => {
      // A mark records each extraction of a link or file (extraction-marks.ts); text is given.
      const doc = await loadDocument(docDeps, source, (extract) => readMarked(db, job, extract));
      if (!doc.markdown.trim()) throw new PermanentJobError("The source has no text to add to the wiki");
      const drafts =
        source.type === "note"
          ? [{ title: doc.title, markdown: doc.markdown }] // notes are verbatim: one page, no synthesis
          : await synthesize(doc, { generator: ctx.ai.generator, log, signal });
      const pages = await allocateSlugs(db, source.brainId, source.id, drafts, batch.reserved, source.pageCount !== 0);
      const found = findConcepts({ read, generator: ctx.ai.generator, log, pool: extractPool, priority: batch.order, titles: titleIndexFor(db) }, source, doc.title, pages, signal);
      found.catch(() => undefined); // awaited in finish(); a failure before then is not unhandled
      return { source, doc, found };
    });
  }

  /** The second half, in the batch's source order: concepts resolved after the earlier sources', vectors. */
  async function finish({ source, doc, found }: Draft, batch: BrainBatch, signal: AbortSignal): Promise<PreparedWrite> {
    return ingestErrors(async () => {
      const concepts = await found;
      const plan = applyConcepts(concepts, source, batch.named);
      let pages = plan.pages;
      const embedder = ctx.ai.embedder;
      const vectors = embedder && (await vectorsOrLater(embedder, pages, log));
      if (vectors) pages = pages.map((p, i) => ({ ...p, vector: vectors[i] }));
      signal.throwIfAborted();
      return {
        source,
        outwardSeen: concepts.outwardSeen,
        written: {
          title: doc.title,
          content: source.type === "link" || source.type === "file" ? doc.markdown : source.content,
          pages,
          model: embedder?.model,
          concepts: plan.concepts,
        },
      };
    });
  }

  async function runBatch(jobs: Job[], signal: AbortSignal, yieldSlot?: () => void): Promise<(unknown | undefined)[]> {
    const batches = new Map<string, BrainBatch>();
    try {
      return await runBatchHolding(jobs, signal, batches, yieldSlot);
    } finally {
      for (const batch of batches.values()) batch.reserved.release();
    }
  }

  async function runBatchHolding(jobs: Job[], signal: AbortSignal, batches: Map<string, BrainBatch>, yieldSlot?: () => void): Promise<(unknown | undefined)[]> {
    const ids = jobs.map((j) => j.subjectId);
    const rows = await db.select().from(sources).where(inArray(sources.id, ids));
    const byId = new Map(rows.map((s) => [s.id, s]));
    const live = rows.map((s) => s.id);
    if (live.length)
      await db.run(sql`UPDATE ${sources} SET status = 'processing', updated_at = ${Date.now()}
        WHERE id IN (${sql.join(live.map((id) => sql`${id}`), sql`, `)}) AND status != 'processing'
          AND NOT (type = 'file' AND uploaded_at IS NULL)`); // a file still awaited stays pending
    const order = batchesStarted++;
    const errors: (unknown | undefined)[] = jobs.map(() => undefined);
    const prepared: { index: number; write: PreparedWrite }[] = [];
    // `batches`: per brain, what earlier sources of this batch took or named (not yet in the database).
    // Links and files wait on the network or storage: a few at a time. Text and notes are pure CPU: one at a
    // time, each after a turn of the event loop, so HTTP requests are served between sources (database calls
    // resolve as microtasks, so without the turn a batch would run start to end while requests wait).
    const batchOf = (source: Source) => {
      if (!batches.has(source.brainId)) batches.set(source.brainId, { reserved: inFlight.forBatch(source.brainId), named: new NamedInBatch(), order });
      return batches.get(source.brainId)!;
    };
    /** The first half of a source; null when it is gone or failed (its error recorded). */
    const draftOne = async (index: number) => {
      const source = byId.get(jobs[index]!.subjectId);
      if (!source) return null; // deleted meanwhile: nothing to do
      try {
        return await draft(jobs[index]!, source, batchOf(source), signal);
      } catch (e) {
        errors[index] = e;
        return null;
      }
    };
    const finishOne = async (index: number, drafted: Draft) => {
      try {
        const job = jobs[index]!;
        prepared.push({ index, write: { ...(await finish(drafted, batchOf(drafted.source), signal)), claim: { jobId: job.id, attempts: job.attempts } } });
      } catch (e) {
        errors[index] = e;
      }
    };
    const fetched = jobs.flatMap((j, i) => (["link", "file"].includes(byId.get(j.subjectId)?.type ?? "") ? [i] : []));
    const local = jobs.flatMap((j, i) => (fetched.includes(i) ? [] : [i]));
    let next = 0;
    const fetchWorker = async () => {
      for (let k = next++; k < fetched.length; k = next++) {
        const drafted = await draftOne(fetched[k]!);
        if (drafted) await finishOne(fetched[k]!, drafted);
      }
    };
    // Text and notes: drafted one after another, while the ones drafted before are finished in order as their
    // concepts come back, so the extraction thread always has the next sources to work on. Drafted in time
    // slices between turns of the event loop, not one source a turn: while the main thread writes or merges
    // (a turn of 10-45 ms each), one source a turn left the extraction thread without work.
    const localWorker = async () => {
      let finishing = Promise.resolve();
      const slice = timeSlicer();
      for (const index of local) {
        await slice();
        const drafted = await draftOne(index);
        if (drafted) finishing = finishing.then(() => finishOne(index, drafted));
      }
      await finishing;
    };
    await Promise.all([...Array.from({ length: Math.min(FETCH_PARALLEL, fetched.length) }, fetchWorker), localWorker()]);
    prepared.sort((a, b) => a.index - b.index);
    signal.throwIfAborted();
    const failed = await writeBatch(db, prepared.map((p) => p.write), log, findInwardFor(order));
    // Pages written without vectors (the embedding server failed): the embed-pages job gives them theirs.
    const embedder = ctx.ai.embedder;
    if (embedder && prepared.some((p, i) => failed[i] === undefined && p.write.written.pages.some((page) => !page.vector))) {
      await scheduleEmbedding(db, embedder.model).catch(() => undefined);
    }
    failed.forEach((error, i) => {
      if (error !== undefined) errors[prepared[i]!.index] = error;
    });
    // Concept pages the batch touched, once per brain (durable: the dirty rows were written with the pages;
    // one refresh per batch, not per source, so a concept named by many sources is rewritten once).
    // First, under the same per-brain lock, links to concept pages created since each source was prepared.
    // Batches that finish while a refresh runs share the next one; meanwhile their slots go to new batches, so
    // the extraction thread is not left idle while the main thread refreshes.
    yieldSlot?.();
    const stored = prepared.filter((_, i) => failed[i] === undefined).map((p) => p.write);
    for (const brainId of new Set(prepared.map((p) => p.write.source.brainId))) {
      const late = stored
        .filter((w) => w.source.brainId === brainId)
        .map((w) => ({ sourceId: w.source.id, type: w.source.type, pageSlugs: w.written.pages.map((p) => p.slug), concepts: w.written.concepts ?? [] }));
      // Then lone concepts are merged when due (lone.ts): a second source naming one is found there.
      try {
        await refreshAllDirtyConcepts({ db, embedder: ctx.ai.embedder }, brainId, signal, async () => {
          await linkLateConcepts(db, brainId, late);
          await mergeLoneConceptsIfDue(db, brainId, INGEST_JOB);
        });
      } catch (e) {
        if (signal.aborted) throw e;
        // The sources are written and ready: failing their jobs would only ingest them again. The dirty marks
        // and lone rows are durable; the brain's refresh job finishes the work.
        log.warn("concept refresh after an ingest batch failed; the brain's refresh job retries it", { brainId, error: (e as Error).message });
        await enqueue(db, { kind: WIKI_REFRESH_JOB, subjectId: brainId, maxAttempts: 5 }).catch(() => undefined);
      }
    }
    return errors;
  }

  return {
    kind: INGEST_JOB,
    batchSize: INGEST_BATCH,
    runBatch,
    close: () => {
      extractPool.close();
      docDeps.reader.close();
    },
    async run(job, signal) {
      const [error] = await runBatch([job], signal);
      if (error !== undefined) throw error;
    },
    async onRetry(job, error, nextAttemptAt) {
      await db.run(sql`UPDATE ${sources} SET status = 'pending', updated_at = ${Date.now()},
          error = ${`Attempt ${job.attempts} of ${job.maxAttempts} failed (${error}); retrying at ${new Date(nextAttemptAt).toISOString()}`}
        WHERE id = ${job.subjectId} AND status != 'ready'`);
    },
    async onGiveUp(job, error) {
      const source = await db.query.sources.findFirst({ where: eq(sources.id, job.subjectId) });
      const failed = source
        ? await eventStatements(db, [{ type: "source.failed", brainId: source.brainId, data: { sourceId: source.id, type: source.type, title: source.title, externalId: source.externalId ?? null, error }, guard: stmt("EXISTS (SELECT 1 FROM sources WHERE id = ?)", source.id), key: `source.failed:${source.id}:${source.revision}` }])
        : [];
      await runStatements(db, [
        db.run(sql`UPDATE ${sources} SET status = 'failed', error = ${error}, updated_at = ${Date.now()}
          WHERE id = ${job.subjectId}`),
        ...failed,
      ]);
    },
  };
}
export { wikiRefreshHandler } from "./refresh-job";
