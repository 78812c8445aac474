// Connectors over HTTP (v1): a brain's connectors, their runs, and "sync now". Reads for whoever can read
// the brain; writes for its owner (secrets in a config are never returned).
import { Elysia } from "elysia";
import type { AppContext } from "../../context";
import { AppError, invalid } from "../../lib/errors";
import { recordAudit } from "../audit/record";
import { authGuard } from "../auth/guard";
import { ownedBrain, readableBrain } from "../brains/service";
import { brainParams, connectorBody, connectorParams, deleteBody, deleteQuery, runsQuery } from "./model";
import { rm } from "node:fs/promises";
import { configEnvOf, workDirOf } from "./kinds/env";
import { listRuns, runView } from "./runs";
import { connectorView, createConnector, deleteConnector, listConnectors, patchConnector, requireConnector, syncNow } from "./service";

const BASE = "/api/v1/brains/:brainId/connectors";

function removeSourcesOf(query: { removeSources?: string }, body: unknown): boolean {
  const fromBody = (body as { removeSources?: unknown } | undefined)?.removeSources;
  const raw = fromBody ?? query.removeSources;
  if (raw === undefined) return false;
  if (raw === true || raw === "true") return true;
  if (raw === false || raw === "false") return false;
  throw invalid("removeSources", "removeSources must be true or false");
}

export const connectorRoutes = (ctx: AppContext) => {
  const { db } = ctx;
  const env = configEnvOf(ctx.config);
  const audit = (action: "connector.created" | "connector.changed" | "connector.deleted", actor: { id: string; name?: string | null }, id: string, details?: Record<string, unknown>) =>
    recordAudit(db, { action, actorId: actor.id, actorLabel: actor.name ?? null, target: { kind: "connector", id }, details }, ctx.log);
  return (
    new Elysia({ detail: { tags: ["Connectors"] } })
      .use(authGuard(ctx, { GET: "brains:read" }))
      // Every connector of the brain, with its last run.
      .get(
        BASE,
        async ({ principal, params }) => {
          await readableBrain(db, principal.account.id, params.brainId);
          const all = await listConnectors(db, params.brainId);
          return { connectors: await Promise.all(all.map((c) => connectorView(db, c))) };
        },
        { params: brainParams },
      )
      // Add a connector: {kind, name, config, schedule}; a scheduled one syncs at once, then on its schedule.
      .post(
        BASE,
        async ({ principal, params, body, set }) => {
          await ownedBrain(db, principal.account.id, params.brainId);
          const c = await createConnector(db, env, params.brainId, body as Record<string, unknown>);
          await audit("connector.created", principal.account, c.id, { kind: c.kind, brainId: c.brainId });
          if (c.nextRunAt !== null) ctx.jobs.wake();
          set.status = 201;
          return { connector: await connectorView(db, c) };
        },
        { params: brainParams, body: connectorBody },
      )
      // One connector.
      .get(
        `${BASE}/:connectorId`,
        async ({ principal, params }) => {
          await readableBrain(db, principal.account.id, params.brainId);
          return { connector: await connectorView(db, await requireConnector(db, params.brainId, params.connectorId)) };
        },
        { params: connectorParams },
      )
      // Change its name, config, schedule or pause it.
      .patch(
        `${BASE}/:connectorId`,
        async ({ principal, params, body }) => {
          await ownedBrain(db, principal.account.id, params.brainId);
          const c = await patchConnector(db, env, params.brainId, params.connectorId, body as Record<string, unknown>);
          await audit("connector.changed", principal.account, c.id, { fields: Object.keys(body as object) });
          return { connector: await connectorView(db, c) };
        },
        { params: connectorParams, body: connectorBody },
      )
      // Delete it; `removeSources: true` (body or query) removes the sources it made, otherwise they stay.
      .delete(
        `${BASE}/:connectorId`,
        async ({ principal, params, query, body, set }) => {
          await ownedBrain(db, principal.account.id, params.brainId);
          const removeSources = removeSourcesOf(query, body);
          const { removedSources } = await deleteConnector(db, params.brainId, params.connectorId, removeSources);
          // Its work folder (a Git clone) goes with it.
          await rm(workDirOf(ctx.config.dataDir, params.connectorId), { recursive: true, force: true }).catch(() => undefined);
          await audit("connector.deleted", principal.account, params.connectorId, { removeSources, removedSources });
          set.status = 200;
          return { deleted: true, removedSources };
        },
        { params: connectorParams, query: deleteQuery, body: deleteBody },
      )
      // Sync now: 202 with the run; 409 while a run is queued or running.
      .post(
        `${BASE}/:connectorId/sync`,
        async ({ principal, params, set }) => {
          await ownedBrain(db, principal.account.id, params.brainId);
          const run = await syncNow(db, params.brainId, params.connectorId);
          ctx.jobs.wake();
          set.status = 202;
          return { run: runView(run) };
        },
        { params: connectorParams },
      )
      // Its runs, newest first: status, counts, the first errors in plain words.
      .get(
        `${BASE}/:connectorId/runs`,
        async ({ principal, params, query }) => {
          await readableBrain(db, principal.account.id, params.brainId);
          const c = await requireConnector(db, params.brainId, params.connectorId);
          const limit = query.limit === undefined ? 50 : Number(query.limit);
          if (!Number.isInteger(limit) || limit < 1 || limit > 500) throw new AppError("invalid_request", "limit must be a whole number from 1 to 500", { field: "limit" });
          return { runs: (await listRuns(db, c.id, limit)).map(runView) };
        },
        { params: connectorParams, query: runsQuery },
      )
  );
};
