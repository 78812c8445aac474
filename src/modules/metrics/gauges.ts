// Gauges read from the database at scrape time, so every replica reports the shared truth.
import { sql } from "drizzle-orm";
import type { AppContext } from "../../context";
import { queueDepth } from "../../queue";

export const METRIC_HELP: Record<string, string> = {
  http_requests_total: "HTTP requests by method, route and status",
  http_request_duration_seconds: "HTTP request latency by method and route",
  jobs_completed_total: "Background jobs completed by this process, by kind",
  job_attempts_failed_total: "Failed job attempts in this process, by kind",
};

export function registerGauges(ctx: AppContext): void {
  ctx.metrics.gauge("brainbox_jobs", "Jobs in the queue by status", async () => {
    const depth = await queueDepth(ctx.db);
    return Object.entries(depth).map(([status, value]) => ({ labels: { status }, value }));
  });
  ctx.metrics.gauge("brainbox_sources", "Sources by status", async () => {
    const rows = await ctx.db.all<{ status: string; n: number }>(sql`SELECT status, count(*) AS n FROM sources GROUP BY status`);
    return rows.map((r) => ({ labels: { status: r.status }, value: Number(r.n) }));
  });
  ctx.metrics.gauge("brainbox_pages", "Wiki pages in all brains", async () => {
    const rows = await ctx.db.all<{ n: number }>(sql`SELECT count(*) AS n FROM pages`);
    return [{ labels: {}, value: Number(rows[0]?.n ?? 0) }];
  });
  ctx.metrics.gauge("brainbox_payments", "x402 payments by outcome (settled, voided, reserved, unknown)", async () => {
    const rows = await ctx.db.all<{ status: string; n: number }>(sql`SELECT status, count(*) AS n FROM payments GROUP BY status`);
    return rows.map((r) => ({ labels: { status: r.status }, value: Number(r.n) }));
  });
}
