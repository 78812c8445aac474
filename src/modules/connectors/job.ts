// The connector-sync job: carries out one run (runner.ts). Leased like every job: a worker that dies lets
// the lease expire and another picks the run up where it was; a run cannot be started twice (runs.ts).
import type { AppContext } from "../../context";
import { createDocumentReader, extractionBudgetOf } from "../../ingest";
import { PermanentJobError, type JobHandler } from "../../jobs/loop";
import { CONNECTOR_SYNC_JOB } from "../../queue/kinds";
import { configEnvOf } from "./kinds/env";
import { finishRun } from "./runs";
import { runConnector, type RunnerDeps } from "./runner";

export function connectorSyncHandler(ctx: AppContext): JobHandler {
  const reader = createDocumentReader(extractionBudgetOf(ctx.config), ctx.log);
  const deps: RunnerDeps = {
    db: ctx.db,
    log: ctx.log,
    reader,
    allowHosts: ctx.config.fetchAllowHosts,
    configEnv: configEnvOf(ctx.config),
    dataDir: ctx.config.dataDir,
    fetchTimeoutMs: ctx.config.fetchTimeoutMs,
    fetchMaxBytes: ctx.config.fetchMaxBytes,
    maxAttempts: ctx.config.jobMaxAttempts,
    wake: () => ctx.jobs.wake(),
  };
  const runIdOf = (payload: Record<string, unknown> | null) => {
    const id = payload?.runId;
    if (typeof id !== "string") throw new PermanentJobError("a connector-sync job without a run");
    return id;
  };
  return {
    kind: CONNECTOR_SYNC_JOB,
    run: (job, signal) => runConnector(deps, runIdOf(job.payload), signal),
    async onGiveUp(job, error) {
      const runId = job.payload?.runId;
      if (typeof runId === "string") await finishRun(ctx.db, runId, "failed", `The run stopped for good: ${error}`);
    },
    close: () => reader.close(),
  };
}
