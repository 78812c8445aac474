// The wiki-refresh job: merges the brain's lone concepts (queued with a source's write, in case the process
// dies before its batch merges them) and re-derives its dirty concept pages (also after a source was deleted).
import type { AppContext } from "../../context";
import { mergeLoneConcepts, refreshAllDirtyConcepts, WIKI_REFRESH_JOB } from "../../concepts";
import type { JobHandler } from "../loop";

export function wikiRefreshHandler(ctx: AppContext): JobHandler {
  return {
    kind: WIKI_REFRESH_JOB,
    async run(job, signal) {
      await refreshAllDirtyConcepts({ db: ctx.db, embedder: ctx.ai.embedder }, job.subjectId, signal, () => mergeLoneConcepts(ctx.db, job.subjectId));
    },
    async onGiveUp(job, error) {
      ctx.log.warn("wiki refresh gave up", { brainId: job.subjectId, error });
    },
  };
}
