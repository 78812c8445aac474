// Wiki pages over HTTP, on both surfaces (the same shape): the list, and one page as JSON or, for a
// browser (Accept prefers text/html), as a rendered page. Citation URLs point here.
import { Elysia } from "elysia";
import type { AppContext } from "../../context";
import { authGuard } from "../auth/guard";
import { readableBrain } from "../brains/service";
import { brainParams, listQuery, pageLimit, pageParams } from "./model";
import { pageDocument, prefersHtml } from "./page-html";
import { getPage, listPages } from "./service";

export const wikiRoutes = (ctx: AppContext) => {
  const app = new Elysia({ detail: { tags: ["Wiki"] } }).use(authGuard(ctx));
  for (const base of ["/api/v1/brains", "/api/brains"]) {
    app
      // Pages of a brain by slug, `limit` at a time; pass `nextCursor` as `cursor` for the next batch.
      .get(
        `${base}/:brainId/pages`,
        async ({ principal, params, query }) => {
          await readableBrain(ctx.db, principal.account.id, params.brainId);
          return listPages(ctx.db, params.brainId, { limit: pageLimit(query.limit), cursor: query.cursor });
        },
        { params: brainParams, query: listQuery },
      )
      // One page: {page:{slug,title,markdown,html,sourceId,links,updatedAt}}, or an HTML document for browsers.
      .get(
        `${base}/:brainId/pages/:slug`,
        async ({ principal, params, request }) => {
          const brain = await readableBrain(ctx.db, principal.account.id, params.brainId);
          const page = await getPage(ctx.db, brain.id, params.slug, (slug) => `${base}/${encodeURIComponent(brain.id)}/pages/${encodeURIComponent(slug)}`);
          if (!prefersHtml(request.headers.get("accept"))) return { page };
          return new Response(pageDocument(page, brain.name), {
            headers: { "content-type": "text/html; charset=utf-8", "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'" },
          });
        },
        { params: pageParams },
      );
  }
  return app;
};
