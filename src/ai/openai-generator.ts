// Answer generation through any server speaking OpenAI's `/v1/chat/completions` (vLLM, llama.cpp's server,
// LM Studio, LocalAI, OpenAI itself) or Azure OpenAI's deployment variant, streaming as server-sent events.
// Same contract as the Ollama generator: every failure of the server (refused, 401/403, unknown model, 429
// beyond the wait allowed, 5xx, bad JSON, a stream cut before its end, silence past the timeout) becomes
// GeneratorUnavailableError, so the answer falls back to extractive; a caller's own abort stays an abort.
import {
  assertMessages,
  DEFAULT_TIMEOUT_MS,
  GeneratorUnavailableError,
  IdleTimer,
  PING_TIMEOUT_MS,
  TokenSink,
  type ChatMessage,
  type ChatOptions,
  type ModelServerGenerator,
} from "./generator";
import { describeServer, endpoint, ModelServerError, requestWithRetry, scrub, statusError, transportError, type RetryPolicy, type ServerTarget } from "./model-server";
import { readServerSentEvents } from "./sse-reader";

/** A rate-limited answer waits at most this long, twice: a person is waiting for it. */
const GENERATION_RETRY: RetryPolicy = { retries: 2, maxWaitMs: 10_000 };

export function createOpenAiGenerator(opts: ServerTarget & { timeoutMs?: number }): ModelServerGenerator {
  const { timeoutMs = DEFAULT_TIMEOUT_MS, ...target } = opts;
  if (!target.url || !target.model) throw new TypeError("createOpenAiGenerator needs an explicit url and model");
  if (target.provider === "ollama") throw new TypeError("an Ollama server takes createOllamaGenerator");
  const where = describeServer(target);

  async function chat(messages: ChatMessage[], chatOpts: ChatOptions = {}): Promise<string> {
    assertMessages(messages);
    const { signal, onToken, temperature } = chatOpts;
    signal?.throwIfAborted();
    const timer = new IdleTimer(timeoutMs);
    const combined = AbortSignal.any(signal ? [signal, timer.signal] : [timer.signal]);
    const tokenSink = onToken && new TokenSink(onToken);
    const body = {
      // Azure takes the deployment from the path; the field is harmless there and required everywhere else.
      model: target.model,
      messages,
      stream: Boolean(tokenSink),
      ...(temperature === undefined ? {} : { temperature }),
    };
    try {
      const response = await requestWithRetry(target, endpoint(target, "chat/completions"), { method: "POST", body, signal: combined }, GENERATION_RETRY);
      if (!response.ok) throw await statusError(response, target);
      const eventStream = response.headers.get("content-type")?.includes("text/event-stream");
      if (!tokenSink || !eventStream) {
        // A server that ignores `stream: true` answers one JSON completion: one piece, then done.
        const text = contentOf(await response.json().catch((e: unknown) => badJson(e)));
        tokenSink?.push(text);
        return text;
      }
      await readStream(response, tokenSink, () => timer.restart());
      return tokenSink.text;
    } catch (e) {
      if (tokenSink?.failed) throw e;
      if (signal?.aborted) throw signal.reason;
      if (timer.signal.aborted) throw new GeneratorUnavailableError(`The ${where} did not answer within ${timeoutMs} ms`, { cause: e });
      const failure = transportError(target, e);
      throw new GeneratorUnavailableError(scrub(failure.message, target), { cause: e, status: failure.status });
    } finally {
      timer.clear();
    }
  }

  async function ping(): Promise<{ ok: boolean; error?: string }> {
    try {
      const signal = AbortSignal.timeout(PING_TIMEOUT_MS);
      const response = await requestWithRetry(target, endpoint(target, "models"), { method: "GET", signal }, { retries: 0, maxWaitMs: 0 });
      // Some servers list no models (404): the server still answers, which is what reachable means.
      if (response.ok || response.status === 404) {
        await response.body?.cancel();
        return { ok: true };
      }
      return { ok: false, error: (await statusError(response, target)).message };
    } catch (e) {
      return { ok: false, error: transportError(target, e).message };
    }
  }

  return { name: `${target.provider}:${target.model}`, chat, ping };
}

/** Feeds each `choices[0].delta.content` to the sink; the stream must end with `[DONE]` or a finish_reason. */
async function readStream(response: Response, sink: TokenSink, onChunk: () => void): Promise<void> {
  if (!response.body) throw new ModelServerError("The model server sent an empty stream");
  let finished = false;
  for await (const data of readServerSentEvents(response.body, onChunk)) {
    if (data === "[DONE]") return;
    const chunk = parseChunk(data);
    if (chunk.error) throw new ModelServerError(`The model server failed mid-stream: ${errorText(chunk.error)}`);
    const choice = chunk.choices?.[0];
    const piece = choice?.delta?.content;
    if (typeof piece === "string") sink.push(piece);
    if (choice?.finish_reason) finished = true;
  }
  // A proxy or a crashed server can end the body early: a half answer is not an answer.
  if (!finished) throw new ModelServerError("The model server's stream ended before the answer did (no [DONE])");
}

interface Chunk {
  choices?: { delta?: { content?: unknown }; message?: { content?: unknown }; finish_reason?: unknown }[];
  error?: unknown;
}

function parseChunk(data: string): Chunk {
  try {
    const parsed = JSON.parse(data) as unknown;
    if (typeof parsed !== "object" || parsed === null) throw new Error("not an object");
    return parsed as Chunk;
  } catch (e) {
    return badJson(e);
  }
}

function contentOf(body: Chunk): string {
  const content = body?.choices?.[0]?.message?.content;
  if (typeof content === "string") return content;
  if (content === null) return ""; // an empty answer: the caller treats it as no answer
  throw new ModelServerError(`The model server's answer has no choices[0].message.content: ${JSON.stringify(body).slice(0, 200)}`);
}

function badJson(e: unknown): never {
  throw new ModelServerError(`The model server sent malformed JSON (${e instanceof Error ? e.message : String(e)})`);
}

const errorText = (e: unknown) => (typeof e === "object" && e && "message" in e ? String(e.message) : JSON.stringify(e)).slice(0, 300);
