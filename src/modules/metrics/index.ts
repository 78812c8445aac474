// Prometheus metrics: requests, latencies, job queue depth, ingestion throughput, payments.
import { Elysia } from "elysia";
import type { AppContext } from "../../context";
import { AppError } from "../../lib/errors";
import { safeEqual } from "../../lib/secrets";

export const metricsRoutes = (ctx: AppContext) =>
  new Elysia({ detail: { hide: true } })
    // Prometheus text exposition; guarded by BRAINBOX_METRICS_TOKEN when set.
    .get("/metrics", async ({ request }) => {
      const token = ctx.config.metricsToken;
      if (token && !safeEqual(request.headers.get("authorization") ?? "", `Bearer ${token}`)) throw new AppError("unauthorized", "The metrics token is required");
      return new Response(await ctx.metrics.render(), { headers: { "content-type": "text/plain; version=0.0.4" } });
    });
