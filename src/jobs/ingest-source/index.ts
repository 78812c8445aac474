// The ingest-source job: document → wiki pages → vectors → one guarded write → links with the brain.
import { eq, sql } from "drizzle-orm";
import type { AppContext } from "../../context";
import { sources } from "../../db/schema";
import { isIngestError } from "../../ingest";
import { INGEST_JOB } from "../../modules/sources/service";
import { DeferJobError, PermanentJobError, type JobHandler } from "../loop";
import { loadDocument } from "./document";
import { synthesize } from "./synthesis";
import { allocateSlugs, linkInward, linkOutward, writePages } from "./write-pages";
import { planConcepts } from "./concepts";
import { refreshDirtyConcepts } from "../../concepts";

/** How often to look for a file uploaded straight to S3. */
const AWAIT_UPLOAD_POLL_MS = 2000;

export function ingestSourceHandler(ctx: AppContext): JobHandler {
  const { db, log } = ctx;
  const docDeps = {
    storage: ctx.storage,
    allowHosts: ctx.config.fetchAllowHosts,
    fetchTimeoutMs: ctx.config.fetchTimeoutMs,
    fetchMaxBytes: ctx.config.fetchMaxBytes,
  };
  return {
    kind: INGEST_JOB,
    async run(job, signal) {
      const source = await db.query.sources.findFirst({ where: eq(sources.id, job.subjectId) });
      if (!source) return; // deleted meanwhile: nothing to do
      if (source.type === "file" && !source.uploadedAt) {
        const until = Number(job.payload?.awaitUploadUntil ?? 0);
        if (!(await ctx.storage.exists(source.storageKey!))) {
          if (Date.now() < until) throw new DeferJobError(AWAIT_UPLOAD_POLL_MS);
          throw new PermanentJobError("The file was never uploaded before its upload URL expired");
        }
        await db.update(sources).set({ uploadedAt: Date.now() }).where(eq(sources.id, source.id));
      }
      await db.run(sql`UPDATE ${sources} SET status = 'processing', updated_at = ${Date.now()}
        WHERE id = ${source.id} AND revision = ${source.revision} AND status != 'processing'`);
      try {
        const doc = await loadDocument(docDeps, source);
        if (!doc.markdown.trim()) throw new PermanentJobError("The source has no text to add to the wiki");
        const drafts =
          source.type === "note"
            ? [{ title: doc.title, markdown: doc.markdown }] // notes are verbatim: one page, no synthesis
            : await synthesize(doc, { generator: ctx.ai.generator, log, signal });
        let pages = await allocateSlugs(db, source.brainId, source.id, drafts);
        if (source.type !== "note") pages = await linkOutward(db, source.brainId, source.id, pages);
        const plan = await planConcepts({ db, generator: ctx.ai.generator, log }, source, doc.title, pages, signal);
        pages = plan.pages;
        const embedder = ctx.ai.embedder;
        if (embedder) {
          const vectors = await embedder.embed(pages.map((p) => `${p.title}\n\n${p.markdown}`));
          pages = pages.map((p, i) => ({ ...p, vector: vectors[i] }));
        }
        signal.throwIfAborted();
        const wrote = await writePages(db, source, {
          title: doc.title,
          content: source.type === "link" || source.type === "file" ? doc.markdown : source.content,
          pages,
          model: embedder?.model,
          concepts: plan.concepts,
        });
        if (wrote) await linkInward(db, source.brainId, source.id, pages);
        // Concept pages touched by this source (durable: the dirty rows were written with the pages).
        while ((await refreshDirtyConcepts({ db, embedder }, source.brainId)) > 0) signal.throwIfAborted();
      } catch (e) {
        if (isIngestError(e) && !e.retryable) throw new PermanentJobError(e.message);
        throw e;
      }
    },
    async onRetry(job, error, nextAttemptAt) {
      await db.run(sql`UPDATE ${sources} SET status = 'pending', updated_at = ${Date.now()},
          error = ${`Attempt ${job.attempts} of ${job.maxAttempts} failed (${error}); retrying at ${new Date(nextAttemptAt).toISOString()}`}
        WHERE id = ${job.subjectId} AND status != 'ready'`);
    },
    async onGiveUp(job, error) {
      await db.run(sql`UPDATE ${sources} SET status = 'failed', error = ${error}, updated_at = ${Date.now()}
        WHERE id = ${job.subjectId}`);
    },
  };
}
export { wikiRefreshHandler } from "./refresh-job";
