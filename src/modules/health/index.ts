// Liveness and what the installation runs on: database, embedder, generator, the paid rail's reconciliation. No credentials needed.
import { Elysia } from "elysia";
import type { AppContext } from "../../context";
import { x402Service } from "../x402";

const STORAGE_FULL_HEALTH = {
  database: "The last database write failed for lack of disk space: writes answer 507 storage_full until space is freed; reads work.",
  files: "The last upload could not be saved for lack of disk space: uploads answer 507 storage_full until space is freed; reads work.",
};

export const healthRoutes = (ctx: AppContext) =>
  new Elysia({ detail: { tags: ["Health"] } })
    // Health and active AI components.
    // `status` rather than `set`: a handler naming `set` takes Elysia's slower response path.
    .get("/api/health", async ({ status }) => {
      let database: { ok: boolean; kind: string; error?: string };
      const kind = ctx.database.client.protocol === "file" ? "embedded" : "remote";
      try {
        await ctx.database.ping();
        database = { ok: true, kind };
      } catch (e) {
        database = { ok: false, kind, error: (e as Error).message };
      }
      const ai = await ctx.aiStatus();
      // Out of space, the server still serves reads: degraded with the reason, but no 503 that would take
      // it out of a load balancer.
      // The database and the uploaded files are tracked apart: either full is degraded.
      const problems = ctx.database.storage.problems();
      const full = problems[0];
      const storage = full
        ? {
            ok: false,
            reason: "storage_full",
            message: problems.map((p) => STORAGE_FULL_HEALTH[p.kind]).join(" "),
            full: problems.map((p) => p.kind),
            error: full.reason,
            since: new Date(full.since).toISOString(),
          }
        : { ok: true };
      // How a payer's lost settlement reply is resolved: an operator can see a missing chain reader.
      const x402 = { reconciliation: x402Service(ctx).reconciliation };
      const body = { status: database.ok && !full ? "ok" : "degraded", version: ctx.version, database, storage, ...ai, x402 };
      return database.ok ? body : status(503, body);
    });
