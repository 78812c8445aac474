// Which generator and embedder this process runs, from plain settings (the runtime maps the config onto
// them), and what /api/health says about them. A broken or unreachable model server never stops the start:
// answers are extractive and retrieval lexical until it answers.
import type { Logger } from "../lib/log";
import { batchingEmbedder } from "./batching-embedder";
import { loadEmbedder, type Embedder } from "./embedder";
import { createOllamaGenerator, type ModelServerGenerator } from "./generator";
import type { ServerProvider, ServerTarget } from "./model-server";
import { createOpenAiGenerator } from "./openai-generator";
import { loadRemoteEmbedder, type RemoteEmbedder, type RemoteEmbedderOptions } from "./remote-embedder";

export interface GenerationSettings extends ServerTarget {
  timeoutMs: number;
}

export type EmbeddingSettings =
  | { kind: "local"; modelsDir: string; model: string }
  | ({ kind: "remote"; storedDim: (model: string) => Promise<number | undefined> } & RemoteEmbedderOptions);

export interface AiBackends {
  embedder: Embedder | null;
  embedderError?: string;
  generator: ModelServerGenerator | null;
  status(): Promise<AiBackendStatus>;
}

export interface AiBackendStatus {
  embedder: { active: string; retrieval: "hybrid" | "lexical"; dim?: number; backend?: "local" | "remote"; provider?: ServerProvider; model?: string; reachable?: boolean; error?: string };
  generator: { active: string; provider?: ServerProvider; model?: string; reachable?: boolean; error?: string };
}

export function createGenerator(settings: GenerationSettings): ModelServerGenerator {
  if (settings.provider === "ollama") {
    return createOllamaGenerator({ host: settings.url, model: settings.model, timeoutMs: settings.timeoutMs, apiKey: settings.apiKey });
  }
  return createOpenAiGenerator(settings);
}

export async function loadAiBackends(generation: GenerationSettings | null, embedding: EmbeddingSettings | null, log: Logger): Promise<AiBackends> {
  const generator = generation ? createGenerator(generation) : null;
  let embedder: Embedder | null = null;
  let remote: RemoteEmbedder | null = null;
  let embedderError: string | undefined;
  try {
    if (embedding?.kind === "local") embedder = batchingEmbedder(await loadEmbedder(embedding));
    if (embedding?.kind === "remote") {
      remote = loadRemoteEmbedder(embedding);
      // Calls gather into requests of the configured size, as many in flight as allowed.
      embedder = batchingEmbedder(remote, { maxBatch: embedding.batchSize * embedding.concurrency });
    }
    // A remote model's dimension comes with its first answer (health shows it).
    if (embedder) log.info("embedder loaded", { model: embedder.model, ...(embedder.dim ? { dim: embedder.dim } : {}), backend: embedding!.kind });
  } catch (e) {
    embedderError = (e as Error).message;
    log.error("embedding model failed to load; retrieval is lexical", { error: embedderError });
  }

  async function embedderStatus(): Promise<AiBackendStatus["embedder"]> {
    if (!embedder) return { active: "none", retrieval: "lexical", ...(embedderError ? { error: embedderError } : {}) };
    if (!remote) return { active: embedder.model, retrieval: "hybrid", dim: embedder.dim, backend: "local" };
    const { reachable, refused, error } = await remote.status();
    const usable = reachable && !refused;
    return {
      active: usable ? remote.model : "none",
      retrieval: usable ? "hybrid" : "lexical",
      ...(remote.dim ? { dim: remote.dim } : {}),
      backend: "remote",
      provider: remote.provider as ServerProvider,
      model: remote.model,
      reachable,
      ...(refused || error ? { error: refused ?? error } : {}),
    };
  }

  async function generatorStatus(): Promise<AiBackendStatus["generator"]> {
    if (!generator || !generation) return { active: "extractive" };
    const ping = await generator.ping();
    const { provider, model } = generation;
    // An unreachable server is not fatal: answers fall back to extractive until it is back.
    return ping.ok ? { active: generator.name, provider, model, reachable: true } : { active: "extractive", provider, model, reachable: false, error: ping.error };
  }

  return {
    embedder,
    embedderError,
    generator,
    status: async () => {
      const [embedderNow, generatorNow] = await Promise.all([embedderStatus(), generatorStatus()]);
      return { embedder: embedderNow, generator: generatorNow };
    },
  };
}
