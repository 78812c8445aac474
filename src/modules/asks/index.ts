// The ask history over HTTP: a brain's asks by the caller, newest first with a cursor, and clearing them;
// the same for a brain set (v1 only, like brain sets). Both surfaces for brains, one shape.
import { Elysia } from "elysia";
import type { AppContext } from "../../context";
import { authGuard } from "../auth/guard";
import { readableBrain } from "../brains/service";
import { resolveBrainSet } from "../brain-sets/service";
import { brainParams, historyQuery, setParams } from "./model";
import { pageUrl } from "../wiki/urls";
import { clearAsks, listAsks } from "./service";

export const askHistoryRoutes = (ctx: AppContext) => {
  const urlOf = (brainId: string, slug: string) => pageUrl(ctx, brainId, slug);
  const app = new Elysia({ detail: { tags: ["Ask history"] } }).use(authGuard(ctx, "ask"));
  for (const base of ["/api/v1/brains", "/api/brains"]) {
    app
      // The caller's asks of this brain, newest first: {asks:[{id,question,thin,surface,createdAt,answerMd,citations}], nextCursor}.
      .get(
        `${base}/:brainId/asks`,
        async ({ principal, params, query }) => {
          const brain = await readableBrain(ctx.db, principal.account.id, params.brainId);
          return listAsks(ctx.db, principal.account.id, { brainId: brain.id }, query, urlOf);
        },
        { params: brainParams, query: historyQuery },
      )
      // Clears the caller's asks of this brain: {deleted: n}. Question quotas are counted elsewhere and stay.
      .delete(
        `${base}/:brainId/asks`,
        async ({ principal, params }) => {
          const brain = await readableBrain(ctx.db, principal.account.id, params.brainId);
          return { deleted: await clearAsks(ctx.db, principal.account.id, { brainId: brain.id }) };
        },
        { params: brainParams },
      );
  }
  return app
    // A brain set's asks by the caller (recorded under the set's primary brain).
    .get(
      "/api/v1/brain-sets/:setId/asks",
      async ({ principal, params, query }) => {
        const set = await resolveBrainSet(ctx.db, principal.account.id, params.setId);
        return listAsks(ctx.db, principal.account.id, { brainId: set.primary.id, setId: set.id }, query, urlOf);
      },
      { params: setParams, query: historyQuery },
    )
    .delete(
      "/api/v1/brain-sets/:setId/asks",
      async ({ principal, params }) => {
        const set = await resolveBrainSet(ctx.db, principal.account.id, params.setId);
        return { deleted: await clearAsks(ctx.db, principal.account.id, { brainId: set.primary.id, setId: set.id }) };
      },
      { params: setParams },
    );
};
