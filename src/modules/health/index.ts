// Liveness and what the installation runs on: database, embedder, generator. No credentials needed.
import { Elysia } from "elysia";
import type { AppContext } from "../../context";

export const healthRoutes = (ctx: AppContext) =>
  new Elysia({ detail: { tags: ["Health"] } })
    // Health and active AI components.
    .get("/api/health", async ({ set }) => {
      let database: { ok: boolean; kind: string; error?: string };
      const kind = ctx.database.client.protocol === "file" ? "embedded" : "remote";
      try {
        await ctx.database.client.execute("SELECT 1");
        database = { ok: true, kind };
      } catch (e) {
        database = { ok: false, kind, error: (e as Error).message };
      }
      const ai = await ctx.aiStatus();
      if (!database.ok) set.status = 503;
      return { status: database.ok ? "ok" : "degraded", version: ctx.version, database, ...ai };
    });
