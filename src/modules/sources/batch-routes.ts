// Bulk add over HTTP, on both surfaces: up to 1,000 sources of that surface's shape in one request and one
// transaction, with a result per item (its index, status and source, or its error).
import { Elysia, t, type TSchema } from "elysia";
import { Value } from "@sinclair/typebox/value";
import { invalid } from "../../lib/errors";
import type { AppContext } from "../../context";
import { authGuard } from "../auth/guard";
import { editableBrain } from "../brains/service";
import { addSourcesBatch, MAX_BATCH, type BatchItemResult } from "./batch";
import { unversionedSourceBody, v1SourceBody } from "./model";
import { fromUnversioned, fromV1 } from "./normalize";
import { sourceView, type Deps, type Source } from "./service";

const brainParams = t.Object({ brainId: t.String() });
const batchBody = t.Object({
  sources: t.Array(t.Unknown(), { description: `1 to ${MAX_BATCH} sources, each in the shape of a single add on this surface` }),
});
const detail = (surface: string) => ({
  summary: `Add up to ${MAX_BATCH} sources at once (${surface})`,
  description:
    `One transaction for the whole batch. Each item is checked on its own: an invalid item gets its own error ` +
    `(status 422, or 409 for an externalId naming a source of another type) and the others are stored. ` +
    `externalId makes each item idempotent (201 created, 200 existing). More than ${MAX_BATCH} items: 422 and nothing stored.`,
});

/** An item checked against the single-add schema, so its error names the field as a single add would. */
function shaped<T>(schema: TSchema, item: unknown): T {
  const error = Value.Errors(schema, item).First();
  if (!error) return item as T;
  const field = error.path.replace(/^\//, "").replace(/\//g, ".") || "source";
  throw invalid(field, `${field}: ${error.message}`);
}

export const sourceBatchRoutes = (ctx: AppContext, deps: Deps) => {
  const allow = ctx.config.fetchAllowHosts;
  const present = (results: BatchItemResult[], view: (s: Source) => unknown) =>
    results.map((r) => ("error" in r ? r : { index: r.index, status: r.status, created: r.created, source: view(r.source) }));
  return new Elysia({ detail: { tags: ["Sources"] } })
    .use(authGuard(ctx, "sources:write"))
    // v1: items as POST /api/v1/brains/{id}/sources takes them.
    .post(
      "/api/v1/brains/:brainId/sources/batch",
      async ({ principal, params, body }) => {
        await editableBrain(ctx.db, principal.account.id, params.brainId);
        const r = await addSourcesBatch(deps, params.brainId, body.sources, (item) => fromV1(shaped(v1SourceBody, item), allow));
        const view = (s: Source) => ({ id: s.id, type: s.type, title: s.title, status: s.status, externalId: s.externalId });
        return { results: present(r.results, view), created: r.created, updated: r.updated, unchanged: r.unchanged, failed: r.failed };
      },
      { params: brainParams, body: batchBody, detail: detail("v1") },
    )
    // Unversioned: items as POST /api/brains/{id}/sources takes them; each source in its full view.
    .post(
      "/api/brains/:brainId/sources/batch",
      async ({ principal, params, body }) => {
        await editableBrain(ctx.db, principal.account.id, params.brainId);
        const r = await addSourcesBatch(deps, params.brainId, body.sources, (item) => fromUnversioned(shaped(unversionedSourceBody, item), allow));
        return { results: present(r.results, sourceView), created: r.created, updated: r.updated, unchanged: r.unchanged, failed: r.failed };
      },
      { params: brainParams, body: batchBody, detail: detail("unversioned") },
    );
};
