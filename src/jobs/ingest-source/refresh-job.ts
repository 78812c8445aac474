// The wiki-refresh job: merges the brain's lone concepts when due (queued with a source's write, in case the
// process dies before its batch merges them) and re-derives its dirty concept pages (also after a source was deleted).
import type { AppContext } from "../../context";
import { mergeLoneConceptsIfDue, refreshAllDirtyConcepts } from "../../concepts";
import { INGEST_JOB, WIKI_REFRESH_JOB } from "../../queue/kinds";
import type { JobHandler } from "../loop";

export function wikiRefreshHandler(ctx: AppContext): JobHandler {
  return {
    kind: WIKI_REFRESH_JOB,
    async run(job, signal) {
      await refreshAllDirtyConcepts({ db: ctx.db, embedder: ctx.ai.embedder }, job.subjectId, signal, () => mergeLoneConceptsIfDue(ctx.db, job.subjectId, INGEST_JOB));
    },
    async onGiveUp(job, error) {
      ctx.log.warn("wiki refresh gave up", { brainId: job.subjectId, error });
    },
  };
}
