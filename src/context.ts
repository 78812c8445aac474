// The app's core, built once in main and handed to every feature plugin (no module-level singletons).
import type { Config } from "./config";
import type { Database, RootDb } from "./db/client";
import type { Logger } from "./lib/log";
import type { TokenResolver } from "./modules/auth/keys";
import type { Embedder } from "./ai/embedder";
import type { OllamaGenerator } from "./ai/generator";
import type { BlobStorage } from "./storage";
import type { Metrics } from "./http/metrics";

export interface AppContext {
  config: Config;
  database: Database;
  db: RootDb;
  log: Logger;
  /** Base of absolute links: BRAINBOX_PUBLIC_URL, or the bound address once the server listens. */
  publicUrl(): string;
  version: string;
  metrics: Metrics;
  storage: BlobStorage;
  /** The background job loop of this process (wake it after enqueueing work). */
  jobs: { wake(): void };
  ai: {
    /** Null when no model is configured (or it failed to load): retrieval is lexical. */
    embedder: Embedder | null;
    embedderError?: string;
    /** Null when no Ollama is configured: answers are extractive. */
    generator: OllamaGenerator | null;
  };
  /** Which embedder and generator are active right now (for /api/health). */
  aiStatus(): Promise<AiStatus>;
  /** Resolves OAuth access tokens (set by the oauth module); API keys need no resolver. */
  accessTokens?: TokenResolver;
}

export interface AiStatus {
  embedder: { active: string; retrieval: "hybrid" | "lexical"; dim?: number; error?: string };
  generator: { active: string; model?: string; reachable?: boolean; error?: string };
}
