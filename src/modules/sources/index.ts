// Sources over HTTP: the v1 surface (kind/mode, {source, created}) and the unversioned one (type, body for
// notes), file uploads through signed URLs, delete and re-process. One service, two presenters.
import { Elysia, t } from "elysia";
import type { AppContext } from "../../context";
import { authGuard } from "../auth/guard";
import { editableBrain, readableBrain } from "../brains/service";
import { sourceParams, unversionedSourceBody, uploadUrlBody, v1SourceBody } from "./model";
import { fromUnversioned, fromV1 } from "./normalize";
import { addSource, deleteSource, listSources, reprocessSource, requireSource, sourceView, type Deps, type Source } from "./service";
import { createUpload, receiveUpload, type UploadDeps } from "./uploads";
import { extractionBudgetOf } from "../../ingest";
import { sourceBatchRoutes } from "./batch-routes";

const brainParams = t.Object({ brainId: t.String() });
const v1Source = (s: Source) => ({ id: s.id, type: s.type, title: s.title, status: s.status, externalId: s.externalId });

export const sourceRoutes = (ctx: AppContext) => {
  const deps: UploadDeps = {
    db: ctx.db,
    maxAttempts: ctx.config.jobMaxAttempts,
    wake: () => ctx.jobs.wake(),
    storage: ctx.storage,
    publicUrl: ctx.publicUrl,
    maxUploadBytes: ctx.config.maxUploadBytes,
    ttlSeconds: ctx.config.uploadUrlTtlSeconds,
    extractionLimits: extractionBudgetOf(ctx.config),
  };
  const allow = ctx.config.fetchAllowHosts;
  const removeSource = async (accountId: string, brainId: string, sourceId: string) => {
    await editableBrain(ctx.db, accountId, brainId);
    const source = await deleteSource(ctx.db, brainId, sourceId);
    if (source.storageKey) await ctx.storage.delete(source.storageKey).catch(() => undefined);
  };
  const reprocess = async (d: Deps, accountId: string, brainId: string, sourceId: string) => {
    await editableBrain(ctx.db, accountId, brainId);
    return reprocessSource(d, brainId, sourceId);
  };

  const authed = new Elysia({ detail: { tags: ["Sources"] } })
    .use(authGuard(ctx, { GET: "brains:read", POST: "sources:write", DELETE: "sources:write" }))
    // v1: add a link, text or note source; an existing externalId answers 200 with created: false.
    .post(
      "/api/v1/brains/:brainId/sources",
      async ({ principal, params, body, set }) => {
        await editableBrain(ctx.db, principal.account.id, params.brainId);
        const { source, created } = await addSource(deps, params.brainId, fromV1(body, allow));
        set.status = created ? 201 : 200;
        return { source: v1Source(source), created };
      },
      { params: brainParams, body: v1SourceBody },
    )
    // Unversioned: add a source by `type`; the answer is the source itself.
    .post(
      "/api/brains/:brainId/sources",
      async ({ principal, params, body, set }) => {
        await editableBrain(ctx.db, principal.account.id, params.brainId);
        const { source, created } = await addSource(deps, params.brainId, fromUnversioned(body, allow));
        set.status = created ? 201 : 200;
        return { ...sourceView(source), created };
      },
      { params: brainParams, body: unversionedSourceBody },
    );

  // The routes that exist on both surfaces with the same shape.
  for (const base of ["/api/v1/brains", "/api/brains"]) {
    authed
      // Every source of the brain with its status, page count and error.
      .get(
        `${base}/:brainId/sources`,
        async ({ principal, params }) => {
          await readableBrain(ctx.db, principal.account.id, params.brainId);
          return { sources: (await listSources(ctx.db, params.brainId)).map(sourceView) };
        },
        { params: brainParams },
      )
      // One source.
      .get(
        `${base}/:brainId/sources/:sourceId`,
        async ({ principal, params }) => {
          await readableBrain(ctx.db, principal.account.id, params.brainId);
          return { source: sourceView(await requireSource(ctx.db, params.brainId, params.sourceId)) };
        },
        { params: sourceParams },
      )
      // Delete a source with its pages and vectors.
      .delete(
        `${base}/:brainId/sources/:sourceId`,
        async ({ principal, params, set }) => {
          await removeSource(principal.account.id, params.brainId, params.sourceId);
          set.status = 204;
        },
        { params: sourceParams },
      )
      // Run the pipeline again on a source.
      .post(
        `${base}/:brainId/sources/:sourceId/reprocess`,
        async ({ principal, params, set }) => {
          set.status = 202;
          return { source: sourceView(await reprocess(deps, principal.account.id, params.brainId, params.sourceId)) };
        },
        { params: sourceParams },
      )
      // Step 1 of a file upload: a source and a short-lived URL to PUT the bytes to.
      .post(
        `${base}/:brainId/sources/upload-url`,
        async ({ principal, params, body, set }) => {
          await editableBrain(ctx.db, principal.account.id, params.brainId);
          set.status = 201;
          return createUpload(deps, params.brainId, body);
        },
        { params: brainParams, body: uploadUrlBody },
      );
  }

  return new Elysia()
    .use(authed)
    .use(sourceBatchRoutes(ctx, deps))
    // Step 2 of a file upload: the signed URL is the credential (no API key), valid once.
    .put(
      "/api/uploads/:token",
      async ({ params, request }) => {
        const { sourceId, size } = await receiveUpload(deps, params.token, request);
        return { sourceId, size, status: "pending" };
      },
      { params: t.Object({ token: t.String() }), detail: { tags: ["Sources"] } },
    );
};
