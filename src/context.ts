// The app's core, built once in main and handed to every feature plugin (no module-level singletons).
import type { Config } from "./config";
import type { Database, Db, RootDb } from "./db/client";
import type { accounts } from "./db/schema";
import type { Logger } from "./lib/log";
import type { Embedder } from "./ai/embedder";
import type { ModelServerGenerator } from "./ai/generator";
import type { AiBackendStatus } from "./ai/backends";
import type { BlobStorage } from "./storage";
import type { Metrics } from "./http/metrics";

/**
 * Who a request acts as: an account, through an API key, an OAuth access token (with that grant's scopes)
 * or a person's session cookie (modules/people: acts as the person's own key).
 */
export interface Principal {
  account: typeof accounts.$inferSelect;
  via: "api_key" | "access_token" | "session";
  credentialId: string;
  /** An access token's scopes (modules/auth/scopes.ts); absent for the owner's own API key, which may do anything. */
  scopes?: ReadonlySet<string>;
  /** A read-only API key (issue 56): it carries READ_ONLY_SCOPES, and a refusal says the key is read-only. */
  readOnly?: boolean;
}

/** Resolves an OAuth access token (modules/oauth) for the auth guard, which cannot import that module. */
export type TokenResolver = (db: Db, token: string, log?: Logger) => Promise<Principal | null>;

/** Resolves a request's session cookie (modules/people) for the auth guard; null when it has no live one. */
export type SessionResolver = (request: Request) => Promise<Principal | null>;

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
    /** Null when no model server is configured (Ollama or OpenAI-compatible): answers are extractive. */
    generator: ModelServerGenerator | null;
  };
  /** Which embedder and generator are active right now (for /api/health). */
  aiStatus(): Promise<AiStatus>;
  /** Resolves OAuth access tokens (set by the oauth module); API keys need no resolver. */
  accessTokens?: TokenResolver;
  /** Resolves a person's session cookie (set by the people module); absent: the API is bearer-only. */
  sessions?: SessionResolver;
}

/** What /api/health shows of them: active backend, provider and model, reachable, the last reason (never a key). */
export type AiStatus = AiBackendStatus;
