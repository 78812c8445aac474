// Embeddings from a model server instead of the local ONNX model: OpenAI-compatible `/v1/embeddings` (vLLM,
// llama.cpp, LM Studio, LocalAI, OpenAI, Azure's deployment variant) or Ollama's `/api/embed`.
// Bounded batches and concurrency, 429s waited out within a bound; the dimension is learned once and every
// later vector must match it (and the vectors already stored for this model), else nothing is written.
import { EmbedderError, type Embedder } from "./embedder";
import { describeServer, endpoint, requestWithRetry, scrub, statusError, transportError, type RetryPolicy, type ServerTarget } from "./model-server";
import { PING_TIMEOUT_MS } from "./generator";

/** Any failure of a remote embedding server: ingestion writes the pages without vectors (lexical) instead. */
export class RemoteEmbedderError extends EmbedderError {
  override name = "RemoteEmbedderError";
}

export interface RemoteEmbedderOptions extends ServerTarget {
  timeoutMs: number;
  /** Texts per request. */
  batchSize: number;
  /** Requests in flight at once. */
  concurrency: number;
  /** Longer texts are cut: a remote model refuses input beyond its context instead of truncating it. */
  maxChars: number;
  /** BRAINBOX_EMBED_DIM: a server answering another dimension is refused. */
  expectedDim?: number;
  /** The dimension of vectors already stored under this model identity, if any. */
  storedDim?: (model: string) => Promise<number | undefined>;
}

export interface RemoteEmbedder extends Embedder {
  readonly provider: string;
  /** Reachable now, and the refusal (wrong dimension) if any: for /api/health. */
  status(): Promise<{ reachable: boolean; refused?: string; error?: string }>;
}

/** Waiting for a rate limit is fine in the background: ingestion and re-embedding are not interactive. */
const EMBED_RETRY: RetryPolicy = { retries: 4, maxWaitMs: 30_000 };

export function loadRemoteEmbedder(opts: RemoteEmbedderOptions): RemoteEmbedder {
  if (!opts.url || !opts.model) throw new TypeError("loadRemoteEmbedder needs an explicit url and model");
  const target: ServerTarget = opts;
  const where = describeServer(target);
  // Vectors are stored per model identity: another provider or model name re-embeds every page.
  const model = `${opts.provider}:${opts.model}`;
  let dim: number | undefined;
  let refused: string | undefined;

  async function learnDimension(found: number): Promise<void> {
    if (opts.expectedDim !== undefined && found !== opts.expectedDim) {
      refused = `The ${where} answers ${found}-dimension vectors for '${opts.model}', but BRAINBOX_EMBED_DIM is ${opts.expectedDim}; refused, retrieval stays lexical`;
    }
    const stored = refused ? undefined : await opts.storedDim?.(model);
    if (stored !== undefined && stored !== found) {
      refused = `The ${where} answers ${found}-dimension vectors for '${opts.model}', but this database holds ${stored}-dimension vectors under the same model; refused, retrieval stays lexical (name another model to re-embed)`;
    }
    if (!refused) dim = found;
  }

  async function request(texts: string[]): Promise<number[][]> {
    const ollama = opts.provider === "ollama";
    const url = ollama ? `${opts.url.replace(/\/+$/, "")}/api/embed` : endpoint(target, "embeddings");
    const input = texts.map((t) => t.slice(0, opts.maxChars) || " "); // OpenAI refuses an empty string
    let response: Response;
    try {
      response = await requestWithRetry(target, url, { method: "POST", body: { model: opts.model, input }, signal: AbortSignal.timeout(opts.timeoutMs) }, EMBED_RETRY);
      if (!response.ok) throw await statusError(response, target);
      return vectorsOf(await response.json(), texts.length, ollama);
    } catch (e) {
      const timedOut = e instanceof DOMException && e.name === "TimeoutError";
      const message = timedOut ? `The ${where} did not answer within ${opts.timeoutMs} ms` : transportError(target, e).message;
      throw new RemoteEmbedderError(scrub(message, target), { cause: e });
    }
  }

  async function embedBatch(texts: string[]): Promise<Float32Array[]> {
    const raw = await request(texts);
    if (dim === undefined && !refused) await learnDimension(raw[0]!.length);
    if (refused) throw new RemoteEmbedderError(refused);
    const wrong = raw.find((v) => v.length !== dim);
    if (wrong) throw new RemoteEmbedderError(`The ${where} answered a ${wrong.length}-dimension vector, expected ${dim}; nothing from this batch is written`);
    return raw.map(normalized);
  }

  const embed = async (texts: string[]): Promise<Float32Array[]> => {
    if (!Array.isArray(texts) || texts.some((t) => typeof t !== "string")) throw new TypeError("embed() expects an array of strings");
    if (refused) throw new RemoteEmbedderError(refused);
    const batches: string[][] = [];
    for (let at = 0; at < texts.length; at += opts.batchSize) batches.push(texts.slice(at, at + opts.batchSize));
    return (await inParallel(batches, opts.concurrency, embedBatch)).flat();
  };

  // The probe learns the dimension in the background: a server that hangs or rate-limits must not hold the
  // start up; one that is down is asked again on first use.
  const probe = embed(["dimension probe"]).then(
    () => undefined,
    () => undefined,
  );

  async function status(): Promise<{ reachable: boolean; refused?: string; error?: string }> {
    await Promise.race([probe, new Promise((resolve) => setTimeout(resolve, PING_TIMEOUT_MS))]);
    const url = opts.provider === "ollama" ? `${opts.url.replace(/\/+$/, "")}/api/version` : endpoint(target, "models");
    try {
      const response = await requestWithRetry(target, url, { method: "GET", signal: AbortSignal.timeout(PING_TIMEOUT_MS) }, { retries: 0, maxWaitMs: 0 });
      const reachable = response.ok || response.status === 404;
      const error = reachable ? undefined : (await statusError(response, target)).message;
      if (reachable) await response.body?.cancel();
      return { reachable, ...(refused ? { refused } : {}), ...(error ? { error } : {}) };
    } catch (e) {
      return { reachable: false, ...(refused ? { refused } : {}), error: transportError(target, e).message };
    }
  }

  return {
    model,
    provider: opts.provider,
    get dim() {
      return dim ?? 0;
    },
    embed,
    status,
  };
}

/** The vectors of an OpenAI `{data:[{index, embedding}]}` or an Ollama `{embeddings}` answer, checked. */
function vectorsOf(body: unknown, count: number, ollama: boolean): number[][] {
  const b = body as { data?: { index?: number; embedding?: unknown }[]; embeddings?: unknown[] };
  const rows = ollama ? b?.embeddings : Array.isArray(b?.data) ? [...b.data].sort((x, y) => (x.index ?? 0) - (y.index ?? 0)).map((d) => d?.embedding) : undefined;
  if (!Array.isArray(rows)) throw new EmbedderError(`answer without ${ollama ? "embeddings" : "data[].embedding"}: ${JSON.stringify(body).slice(0, 200)}`);
  if (rows.length !== count) throw new EmbedderError(`answered ${rows.length} vectors for ${count} texts`);
  for (const row of rows) {
    if (!Array.isArray(row) || row.length === 0 || row.some((x) => typeof x !== "number" || !Number.isFinite(x))) {
      throw new EmbedderError("answered a vector that is not a list of finite numbers");
    }
  }
  return rows as number[][];
}

/** Unit length, as the local model's: the vector index scores by dot product. */
function normalized(v: number[]): Float32Array {
  const norm = Math.hypot(...v) || 1;
  return Float32Array.from(v, (x) => x / norm);
}

/** Runs `work` over the items, at most `limit` at a time, results in input order. */
async function inParallel<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
