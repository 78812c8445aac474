// The wiki-refresh job: re-derives the dirty concept pages of one brain (after a source was deleted).
import type { AppContext } from "../../context";
import { refreshAllDirtyConcepts, WIKI_REFRESH_JOB } from "../../concepts";
import type { JobHandler } from "../loop";

export function wikiRefreshHandler(ctx: AppContext): JobHandler {
  return {
    kind: WIKI_REFRESH_JOB,
    async run(job, signal) {
      await refreshAllDirtyConcepts({ db: ctx.db, embedder: ctx.ai.embedder }, job.subjectId, signal);
    },
    async onGiveUp(job, error) {
      ctx.log.warn("wiki refresh gave up", { brainId: job.subjectId, error });
    },
  };
}
