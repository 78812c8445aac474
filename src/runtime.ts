// Starts and stops a whole Brainbox instance: database, migrations, owner bootstrap, HTTP server.
// Used by the CLI and by tests, so tests exercise exactly what `serve` runs.
import type { Config } from "./config";
import type { AiStatus, AppContext } from "./context";
import { migrate, openDatabase } from "./db/client";
import { createLogger, type Logger } from "./lib/log";
import { bootstrapOwner } from "./modules/accounts/bootstrap";
import type { NewApiKey } from "./modules/auth/keys";
import { buildApp } from "./server";
import { VERSION } from "./version";

export interface Running {
  url: string;
  ctx: AppContext;
  /** Set on the very first start of an empty database: the owner's first key, shown once. */
  firstKey?: NewApiKey;
  stop(): Promise<void>;
}

export async function startServer(config: Config, log: Logger = createLogger(config.logLevel)): Promise<Running> {
  const database = openDatabase({ dataDir: config.dataDir, url: config.databaseUrl, authToken: config.databaseAuthToken });
  await migrate(database.client);
  let boundUrl = "";
  const aiStatus = (): AiStatus => ({
    embedder: { active: "none", retrieval: "lexical" },
    generator: config.ollamaUrl
      ? { active: "ollama", model: config.ollamaModel }
      : { active: "extractive" },
  });
  const ctx: AppContext = {
    config,
    database,
    db: database.db,
    log,
    version: VERSION,
    publicUrl: () => config.publicUrl ?? boundUrl,
    aiStatus,
  };
  const { firstKey } = await bootstrapOwner(database.db, config.ownerPlan);
  const app = buildApp(ctx).listen({
    hostname: config.host,
    port: config.port,
    // JSON bodies are capped by the parser; uploads stream up to their own cap.
    maxRequestBodySize: config.maxUploadBytes + 1024 * 1024,
  });
  const server = app.server!;
  boundUrl = `http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${server.port}`;
  log.info("listening", { url: boundUrl, publicUrl: ctx.publicUrl(), database: database.location });
  return {
    url: boundUrl,
    ctx,
    firstKey,
    async stop() {
      await app.stop(true);
      database.close();
    },
  };
}
