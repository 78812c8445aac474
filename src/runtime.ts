// Starts and stops a whole Brainbox instance: database, migrations, owner bootstrap, HTTP server.
// Used by the CLI and by tests, so tests exercise exactly what `serve` runs.
import type { Config } from "./config";
import type { AiStatus, AppContext } from "./context";
import { migrate, openDatabase } from "./db/client";
import { createLogger, type Logger } from "./lib/log";
import { bootstrapOwner } from "./modules/accounts/bootstrap";
import { resolveAccessToken } from "./modules/oauth";
import { sessionResolver } from "./modules/people";
import { createPasswordLink } from "./modules/people/links";
import { startAuditRetention } from "./modules/audit/retention";
import { isValidCredential, type NewApiKey } from "./modules/auth/keys";
import { buildApp } from "./server";
import { x402Service } from "./modules/x402";
import { withEdge } from "./http/edge";
import { createMetrics } from "./http/metrics";
import { METRIC_HELP, registerGauges } from "./modules/metrics/gauges";
import { embedPagesHandler, scheduleEmbedding } from "./jobs/embed-pages";
import { ingestSourceHandler, wikiRefreshHandler } from "./jobs/ingest-source";
import { startJobLoop, type JobLoop } from "./jobs/loop";
import { connectorSyncHandler } from "./modules/connectors/job";
import { startDueRuns } from "./modules/connectors/scheduler";
import { webhookDeliverHandler } from "./jobs/webhook-deliver";
import { createStorage } from "./storage";
import { loadAiBackends, type EmbeddingSettings, type GenerationSettings } from "./ai/backends";
import { storedVectorDimension } from "./db/vector-dimension";
import type { RootDb } from "./db/client";
import { VERSION } from "./version";

export interface Running {
  url: string;
  ctx: AppContext;
  /** Set on the very first start of an empty database: the owner's first key, shown once. */
  firstKey?: NewApiKey;
  /** With the first key: the one-time link where the owner sets an email and a password, shown once. */
  setupUrl?: string;
  jobLoop(): JobLoop | null;
  stop(): Promise<void>;
}

/** The generation server the config names: BRAINBOX_LLM_URL (any provider), else BRAINBOX_OLLAMA_URL, else none. */
function generationSettings(config: Config): GenerationSettings | null {
  const timeoutMs = config.llmTimeoutMs;
  if (config.llmUrl) {
    const model = config.llmModel ?? config.ollamaModel; // only Ollama may go without BRAINBOX_LLM_MODEL (config checks)
    return { provider: config.llmProvider, url: config.llmUrl, model, apiKey: config.llmApiKey, apiVersion: config.azureApiVersion, timeoutMs };
  }
  return config.ollamaUrl ? { provider: "ollama", url: config.ollamaUrl, model: config.ollamaModel, timeoutMs } : null;
}

/** The local model folder, or the embedding server (checked against the vectors this database already holds). */
function embeddingSettings(config: Config, db: RootDb): EmbeddingSettings | null {
  if (!config.embedModel) return null;
  if (!config.embedUrl) return { kind: "local", modelsDir: config.modelsDir, model: config.embedModel };
  return {
    kind: "remote",
    provider: config.embedProvider,
    url: config.embedUrl,
    model: config.embedModel,
    apiKey: config.embedApiKey,
    apiVersion: config.azureApiVersion,
    expectedDim: config.embedDim,
    batchSize: config.embedBatch,
    concurrency: config.embedConcurrency,
    maxChars: config.embedMaxChars,
    timeoutMs: config.embedTimeoutMs,
    storedDim: (model) => storedVectorDimension(db, model),
  };
}

export async function startServer(config: Config, log: Logger = createLogger(config.logLevel)): Promise<Running> {
  const database = openDatabase({ dataDir: config.dataDir, url: config.databaseUrl, authToken: config.databaseAuthToken, remoteTimeoutMs: config.databaseTimeoutMs, checkpointThread: true, log });
  await migrate(database.client);
  let boundUrl = "";
  // A broken model leaves the brain lexical and the answers extractive, never the server down.
  const backends = await loadAiBackends(generationSettings(config), embeddingSettings(config, database.db), log);
  const ai: AppContext["ai"] = { embedder: backends.embedder, embedderError: backends.embedderError, generator: backends.generator };
  const aiStatus = (): Promise<AiStatus> => backends.status();
  let jobLoop: JobLoop | null = null;
  const metrics = createMetrics(METRIC_HELP);
  const ctx: AppContext = {
    metrics,
    config,
    storage: createStorage(config, database.storage),
    jobs: { wake: () => jobLoop?.wake() },
    database,
    db: database.db,
    log,
    version: VERSION,
    publicUrl: () => config.publicUrl ?? boundUrl,
    ai,
    aiStatus,
    // OAuth access tokens (bb_at_) are accepted wherever an API key is.
    accessTokens: resolveAccessToken,
  };
  // A person's session cookie is a credential too (modules/people), wherever the auth guard runs.
  ctx.sessions = sessionResolver(ctx);
  const { owner, firstKey } = await bootstrapOwner(database.db, config.ownerPlan);
  const setupLink = firstKey ? await createPasswordLink(database.db, owner.id, "setup", config.passwordLinkTtlHours * 3600_000) : undefined;
  registerGauges(ctx);
  // Paid features: a paid brain with no facilitator stops the start; a facilitator that is down does not.
  await x402Service(ctx)
    .startupCheck()
    .catch((e: unknown) => {
      database.close();
      throw e;
    });
  const app = buildApp(ctx);
  const edge = withEdge((req) => app.handle(req), {
    log,
    metrics,
    corsOrigins: config.corsOrigins,
    authFailuresPerMinute: config.authFailuresPerMinute,
    trustedProxies: config.trustedProxies,
    isValidCredential: (authorization) => isValidCredential(database.db, authorization, { accessToken: ctx.accessTokens }),
  });
  const server = Bun.serve({
    hostname: config.host,
    port: config.port,
    // JSON bodies are capped by the parser; uploads stream up to their own cap.
    maxRequestBodySize: config.maxUploadBytes + 1024 * 1024,
    // Answers from a slow local model can take minutes; SSE streams keep the connection busy anyway.
    idleTimeout: 255,
    fetch: (req, srv) => edge(req, () => srv.requestIP(req)?.address ?? "unknown"),
  });
  boundUrl = `http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${server.port}`;
  if (ai.embedder) await scheduleEmbedding(database.db, ai.embedder.model);
  const auditRetention = startAuditRetention(database.db, config.auditRetentionDays, log);
  if (config.jobs)
    jobLoop = startJobLoop({
      db: database.db,
      log,
      handlers: [
        ingestSourceHandler(ctx),
        wikiRefreshHandler(ctx),
        connectorSyncHandler(ctx),
        webhookDeliverHandler(ctx),
        ...(ai.embedder ? [embedPagesHandler(database.db, ai.embedder)] : []),
      ],
      tasks: [{ name: "connector-scheduler", everyMs: config.connectorSchedulerMs, run: async () => (await startDueRuns(database.db)) > 0 }],
      concurrency: config.jobConcurrency,
      leaseMs: config.jobLeaseMs,
      retryBaseMs: config.jobRetryBaseMs,
      metrics,
    });
  log.info("listening", { url: boundUrl, publicUrl: ctx.publicUrl(), database: database.location });
  return {
    url: boundUrl,
    ctx,
    firstKey,
    setupUrl: setupLink && `${ctx.publicUrl()}${setupLink.path}`,
    jobLoop: () => jobLoop,
    async stop() {
      // Stop taking requests, let in-flight ones finish, then finish or hand back running jobs.
      await server.stop(false);
      x402Service(ctx).stop(); // the background reconciler of the paid rail
      auditRetention.stop();
      await jobLoop?.stop(config.shutdownGraceMs);
      database.close();
    },
  };
}
