// The app's core, built once in main and handed to every feature plugin (no module-level singletons).
import type { Config } from "./config";
import type { Database, RootDb } from "./db/client";
import type { Logger } from "./lib/log";
import type { TokenResolver } from "./modules/auth/keys";

export interface AppContext {
  config: Config;
  database: Database;
  db: RootDb;
  log: Logger;
  /** Base of absolute links: BRAINBOX_PUBLIC_URL, or the bound address once the server listens. */
  publicUrl(): string;
  version: string;
  /** Which embedder and generator are active right now (for /api/health). */
  aiStatus(): AiStatus;
  /** Resolves OAuth access tokens (set by the oauth module); API keys need no resolver. */
  accessTokens?: TokenResolver;
}

export interface AiStatus {
  embedder: { active: string; retrieval: "hybrid" | "lexical"; dim?: number; error?: string };
  generator: { active: string; model?: string; reachable?: boolean; error?: string };
}
