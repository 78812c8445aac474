// Wiki pages over HTTP, on both surfaces (the same shape): the list, one page as JSON or, for a browser
// (Accept prefers text/html), as a rendered page; editing with revisions; the link graph.
import { Elysia } from "elysia";
import type { AppContext } from "../../context";
import { authGuard } from "../auth/guard";
import { editableBrain, readableBrain } from "../brains/service";
import { listRevisions, updatePage } from "./edit";
import { getGraph } from "./graph";
import { brainParams, graphOptions, graphQuery, listQuery, pageEdit, pageLimit, pageParams } from "./model";
import { pageDocument, prefersHtml } from "./page-html";
import { getPage, listPages } from "./service";

export const wikiRoutes = (ctx: AppContext) => {
  const app = new Elysia({ detail: { tags: ["Wiki"] } }).use(authGuard(ctx, { GET: "brains:read", PUT: "brains:write" }));
  for (const base of ["/api/v1/brains", "/api/brains"]) {
    const pathOf = (brainId: string) => (slug: string) => `${base}/${encodeURIComponent(brainId)}/pages/${encodeURIComponent(slug)}`;
    app
      // Pages of a brain by slug, `limit` at a time (optionally one `kind`); pass `nextCursor` as `cursor`.
      .get(
        `${base}/:brainId/pages`,
        async ({ principal, params, query }) => {
          await readableBrain(ctx.db, principal.account.id, params.brainId);
          return listPages(ctx.db, params.brainId, { limit: pageLimit(query.limit), cursor: query.cursor, kind: query.kind });
        },
        { params: brainParams, query: listQuery },
      )
      // One page: {page:{slug,title,kind,markdown,html,sourceId,links,backlinks,edited,sourceChanged,revision,updatedAt}}.
      .get(
        `${base}/:brainId/pages/:slug`,
        async ({ principal, params, request }) => {
          const brain = await readableBrain(ctx.db, principal.account.id, params.brainId);
          const page = await getPage(ctx.db, brain.id, params.slug, pathOf(brain.id));
          if (!prefersHtml(request.headers.get("accept"))) return { page };
          return new Response(pageDocument(page, brain.name), {
            headers: { "content-type": "text/html; charset=utf-8", "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'" },
          });
        },
        { params: pageParams },
      )
      // The owner edits a page: {markdown, title?, baseRevision?} → {page}; never overwritten by its source again.
      .put(
        `${base}/:brainId/pages/:slug`,
        async ({ principal, params, body }) => {
          const brain = await editableBrain(ctx.db, principal.account.id, params.brainId);
          await updatePage(ctx.db, ctx.ai.embedder, brain.id, params.slug, body);
          return { page: await getPage(ctx.db, brain.id, params.slug, pathOf(brain.id)) };
        },
        { params: pageParams, body: pageEdit },
      )
      // Saved states of a page, newest first; revert by PUT of an old revision's markdown and title.
      .get(
        `${base}/:brainId/pages/:slug/revisions`,
        async ({ principal, params }) => {
          const brain = await readableBrain(ctx.db, principal.account.id, params.brainId);
          return { revisions: await listRevisions(ctx.db, brain.id, params.slug) };
        },
        { params: pageParams },
      )
      // The link graph: the best-connected `limit` pages, or the pages around one (`around`, `depth` 1–3).
      .get(
        `${base}/:brainId/graph`,
        async ({ principal, params, query }) => {
          const brain = await readableBrain(ctx.db, principal.account.id, params.brainId);
          return getGraph(ctx.db, brain.id, graphOptions(query));
        },
        { params: brainParams, query: graphQuery },
      );
  }
  return app;
};
