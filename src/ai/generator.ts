// Answer generation through an Ollama server, with the official `ollama` client (an OpenAI-compatible or
// Azure server: openai-generator.ts, behind the same Generator interface).
// Every failure of the server (down, slow, unknown model, error mid-stream) becomes GeneratorUnavailableError,
// so callers can fall back to the extractive answer; a caller's own abort stays an abort.
import { Ollama } from "ollama";

export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

export interface ChatOptions {
  signal?: AbortSignal;
  /** Streams the answer: called with each piece of text, in order. */
  onToken?: (t: string) => void;
  temperature?: number;
}

export interface Generator {
  /** e.g. "ollama:llama3.2" */
  readonly name: string;
  chat(messages: ChatMessage[], opts?: ChatOptions): Promise<string>;
}

/** A generator behind a model server, which /api/health can ask whether it is reachable. */
export interface ModelServerGenerator extends Generator {
  ping(): Promise<{ ok: boolean; version?: string; error?: string }>;
}

export type OllamaGenerator = ModelServerGenerator;

export class GeneratorUnavailableError extends Error {
  override name = "GeneratorUnavailableError";
  /** HTTP status of the model server's answer, when it answered at all. */
  readonly status?: number;
  constructor(message: string, options?: { cause?: unknown; status?: number }) {
    super(message, { cause: options?.cause });
    this.status = options?.status;
  }
}

// A local model on a small CPU can take minutes for a full answer; when streaming this is the longest
// silence allowed between two pieces, otherwise the whole answer.
export const DEFAULT_TIMEOUT_MS = 120_000;
export const PING_TIMEOUT_MS = 2_000;
const ROLES = new Set(["system", "user", "assistant"]);

export function createOllamaGenerator(opts: { host: string; model: string; timeoutMs?: number; apiKey?: string }): OllamaGenerator {
  const { host, model } = opts;
  // An Ollama behind an authenticating proxy takes a bearer key; write-only, never in a message.
  const headers = opts.apiKey ? { authorization: `Bearer ${opts.apiKey}` } : undefined;
  if (!host || !model) throw new TypeError("createOllamaGenerator needs an explicit host and model");
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;

  async function chat(messages: ChatMessage[], chatOpts: ChatOptions = {}): Promise<string> {
    assertMessages(messages);
    const { signal, onToken, temperature } = chatOpts;
    signal?.throwIfAborted();
    const timer = new IdleTimer(timeoutMs);
    const client = clientWithSignal(host, AbortSignal.any(signal ? [signal, timer.signal] : [timer.signal]), headers);
    const options = temperature === undefined ? undefined : { temperature };
    const tokenSink = onToken && new TokenSink(onToken);
    try {
      if (!tokenSink) {
        const response = await client.chat({ model, messages, options, stream: false });
        return response.message.content;
      }
      const stream = await client.chat({ model, messages, options, stream: true });
      try {
        for await (const part of stream) {
          timer.restart();
          tokenSink.push(part.message.content);
        }
      } finally {
        stream.abort(); // frees the connection when we stop early (caller abort, onToken threw); no-op once done
      }
      return tokenSink.text;
    } catch (e) {
      if (tokenSink?.failed) throw e;
      if (signal?.aborted) throw signal.reason;
      if (timer.signal.aborted) {
        throw new GeneratorUnavailableError(`Ollama at ${host} did not answer within ${timeoutMs} ms`, { cause: e });
      }
      throw unavailable(host, model, e);
    } finally {
      timer.clear();
    }
  }

  async function ping(): Promise<{ ok: boolean; version?: string; error?: string }> {
    try {
      const { version } = await clientWithSignal(host, AbortSignal.timeout(PING_TIMEOUT_MS), headers).version();
      return { ok: true, version };
    } catch (e) {
      return { ok: false, error: unavailable(host, model, e).message };
    }
  }

  return { name: `ollama:${model}`, chat, ping };
}

// The client takes no per-request signal for non-streaming calls, but it takes a fetch: a fresh client per
// call whose fetch carries the signal covers connect, wait and body for both modes.
function clientWithSignal(host: string, signal: AbortSignal, headers?: Record<string, string>): Ollama {
  const fetchWithSignal = (input: RequestInfo | URL, init?: RequestInit) =>
    fetch(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, signal]) : signal });
  return new Ollama({ host, fetch: fetchWithSignal as typeof fetch, headers });
}

function unavailable(host: string, model: string, e: unknown): GeneratorUnavailableError {
  const status = typeof e === "object" && e !== null && "status_code" in e ? Number(e.status_code) : undefined;
  const detail = e instanceof Error ? e.message : String(e);
  if (status === 404 && /not found/i.test(detail)) {
    return new GeneratorUnavailableError(
      `Ollama at ${host} has no model '${model}' (${detail}); run \`ollama pull ${model}\` there`,
      { cause: e, status },
    );
  }
  if (status !== undefined) {
    return new GeneratorUnavailableError(`Ollama at ${host} answered HTTP ${status}: ${detail}`, { cause: e, status });
  }
  // fetch reports network failures with a system code (ECONNREFUSED, ENOTFOUND, ECONNRESET, ...).
  if (typeof e === "object" && e !== null && "code" in e && typeof e.code === "string") {
    return new GeneratorUnavailableError(`Ollama at ${host} is not reachable: ${detail}`, { cause: e });
  }
  return new GeneratorUnavailableError(`Ollama at ${host} failed: ${detail}`, { cause: e });
}

export function assertMessages(messages: ChatMessage[]): void {
  if (!Array.isArray(messages) || messages.length === 0) throw new TypeError("chat() needs at least one message");
  for (const m of messages) {
    if (typeof m !== "object" || m === null || !ROLES.has(m.role) || typeof m.content !== "string") {
      throw new TypeError(`Invalid chat message: ${JSON.stringify(m)}`);
    }
  }
}

/** Collects streamed pieces and hands each to the caller; remembers if the caller's callback threw (their error, not Ollama's). */
export class TokenSink {
  text = "";
  failed = false;
  constructor(private readonly onToken: (t: string) => void) {}
  push(piece: string): void {
    if (!piece) return;
    this.text += piece;
    try {
      this.onToken(piece);
    } catch (e) {
      this.failed = true;
      throw e;
    }
  }
}

/** Aborts its signal after `ms` without a restart(). */
export class IdleTimer {
  private readonly controller = new AbortController();
  private handle: ReturnType<typeof setTimeout> | undefined;
  readonly signal = this.controller.signal;
  constructor(private readonly ms: number) {
    this.restart();
  }
  restart(): void {
    clearTimeout(this.handle);
    this.handle = setTimeout(() => this.controller.abort(new Error(`no answer within ${this.ms} ms`)), this.ms);
  }
  clear(): void {
    clearTimeout(this.handle);
  }
}
