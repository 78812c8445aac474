// What the OpenAI-compatible generator and the remote embedder share: where a request goes for each kind of
// server, how the key is sent, how a 429 is waited out, and how a failure is described without the key.
// Plain fetch: the wire protocol is small, and the single binary carries no extra client.

export type ServerProvider = "ollama" | "openai" | "azure";

export interface ServerTarget {
  provider: ServerProvider;
  /** Base URL as configured (no trailing slash). */
  url: string;
  /** Model name; for Azure the deployment name. */
  model: string;
  /** Write-only: sent in a header, never logged or shown. */
  apiKey?: string;
  /** Azure's api-version query parameter. */
  apiVersion?: string;
}

/** One failed request to a model server, already worded for a log or /api/health (no key in it). */
export class ModelServerError extends Error {
  override name = "ModelServerError";
  readonly status?: number;
  constructor(message: string, options?: { cause?: unknown; status?: number }) {
    super(message, { cause: options?.cause });
    this.status = options?.status;
  }
}

export const DEFAULT_AZURE_API_VERSION = "2024-10-21";

/**
 * The endpoint of an operation. An OpenAI-compatible base may be given with or without its `/v1` (clients
 * disagree on the convention: `http://host:8000/v1` and `http://host:8000` both work).
 */
export function endpoint(target: ServerTarget, operation: "chat/completions" | "embeddings" | "models"): string {
  const base = target.url.replace(/\/+$/, "");
  if (target.provider === "azure") {
    const version = encodeURIComponent(target.apiVersion ?? DEFAULT_AZURE_API_VERSION);
    if (operation === "models") return `${base}/openai/models?api-version=${version}`;
    return `${base}/openai/deployments/${encodeURIComponent(target.model)}/${operation}?api-version=${version}`;
  }
  return `${/\/v\d+$/.test(base) ? base : `${base}/v1`}/${operation}`;
}

/** Where a request went, for messages: scheme, host and path, never the query (Azure's) or userinfo. */
export function describeServer(target: ServerTarget): string {
  try {
    const u = new URL(target.url);
    return `${target.provider} server at ${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, "")}`;
  } catch {
    return `${target.provider} server`;
  }
}

export function authHeaders(target: ServerTarget): Record<string, string> {
  if (!target.apiKey) return {};
  return target.provider === "azure" ? { "api-key": target.apiKey } : { authorization: `Bearer ${target.apiKey}` };
}

/** Removes the key from any text a server sent back (some echo a wrong key in their 401). */
export function scrub(text: string, target: ServerTarget): string {
  const key = target.apiKey;
  if (!key || key.length < 4) return text;
  return text.split(key).join("***");
}

export interface RetryPolicy {
  /** Further attempts after a 429. */
  retries: number;
  /** A Retry-After longer than this is not waited for: the call fails at once (and the caller falls back). */
  maxWaitMs: number;
}

/** Milliseconds a 429 asks for: `retry-after-ms` (OpenAI), else `Retry-After` in seconds or as an HTTP date. */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const ms = Number(headers.get("retry-after-ms"));
  if (headers.has("retry-after-ms") && Number.isFinite(ms) && ms >= 0) return ms;
  const raw = headers.get("retry-after")?.trim();
  if (!raw) return undefined;
  if (/^\d+(\.\d+)?$/.test(raw)) return Number(raw) * 1000;
  const at = Date.parse(raw);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Without a Retry-After, a 429 is retried after this pause. */
const DEFAULT_429_WAIT_MS = 1000;

/**
 * POSTs (or GETs) JSON, waiting out 429s the policy allows. Answers the response of the first non-429
 * attempt (any status: the caller reads errors); a 429 it may not wait for becomes ModelServerError.
 */
export async function requestWithRetry(
  target: ServerTarget,
  url: string,
  init: { method: "GET" | "POST"; body?: unknown; signal: AbortSignal },
  policy: RetryPolicy,
): Promise<Response> {
  for (let attempt = 0; ; attempt++) {
    const response = await fetch(url, {
      method: init.method,
      headers: { ...authHeaders(target), ...(init.body === undefined ? {} : { "content-type": "application/json" }), accept: "application/json, text/event-stream" },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: init.signal,
    });
    if (response.status !== 429) return response;
    const wait = retryAfterMs(response.headers) ?? DEFAULT_429_WAIT_MS;
    const detail = await errorDetail(response, target);
    if (attempt >= policy.retries || wait > policy.maxWaitMs) {
      const why = wait > policy.maxWaitMs ? `asks to wait ${Math.ceil(wait / 1000)} s, more than the ${Math.ceil(policy.maxWaitMs / 1000)} s allowed` : `still after ${attempt + 1} attempts`;
      throw new ModelServerError(`The ${describeServer(target)} is rate limiting (HTTP 429, ${why})${detail ? `: ${detail}` : ""}`, { status: 429 });
    }
    await sleep(wait, init.signal);
  }
}

/** A failed response in words: status, what it means for the operator, the server's own message. */
export async function statusError(response: Response, target: ServerTarget): Promise<ModelServerError> {
  const detail = await errorDetail(response, target);
  const where = describeServer(target);
  const status = response.status;
  const meaning =
    status === 401 || status === 403
      ? `refused the API key (HTTP ${status}); check the configured key`
      : status === 404
        ? `has no model or deployment '${target.model}' (HTTP 404)`
        : `answered HTTP ${status}`;
  return new ModelServerError(`The ${where} ${meaning}${detail ? `: ${detail}` : ""}`, { status });
}

/** The message of an OpenAI-style `{error:{message}}`, an Ollama-style `{error}`, or the text; bounded, scrubbed. */
async function errorDetail(response: Response, target: ServerTarget): Promise<string> {
  const text = await response.text().catch(() => "");
  let message = text;
  try {
    const body = JSON.parse(text) as { error?: unknown; message?: unknown };
    const e = body.error;
    message = typeof e === "string" ? e : typeof e === "object" && e && "message" in e ? String(e.message) : typeof body.message === "string" ? body.message : text;
  } catch {
    // not JSON: the text itself
  }
  return scrub(message.replace(/\s+/g, " ").trim().slice(0, 300), target);
}

/** A failure that is not an HTTP status (refused connection, reset, DNS, bad JSON), worded with the server. */
export function transportError(target: ServerTarget, e: unknown): ModelServerError {
  if (e instanceof ModelServerError) return e;
  const detail = scrub(e instanceof Error ? e.message : String(e), target);
  const networkCode = typeof e === "object" && e !== null && "code" in e && typeof e.code === "string" ? e.code : undefined;
  const what = networkCode || /unable to connect|ECONNREFUSED|fetch failed/i.test(detail) ? "is not reachable" : "failed";
  return new ModelServerError(`The ${describeServer(target)} ${what}: ${detail}`, { cause: e });
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
