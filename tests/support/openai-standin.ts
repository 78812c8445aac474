// A loopback stand-in speaking OpenAI's HTTP API as vLLM, llama.cpp, LM Studio and OpenAI do, and Azure
// OpenAI's deployment paths: https://platform.openai.com/docs/api-reference/chat and /embeddings.
// Chat answers as JSON or as server-sent events (`data: {chunk}` lines, a blank line each, `data: [DONE]`);
// errors as `{error:{message,type,code}}`; 429 with Retry-After; and the failures a real server has: a hang,
// a stream cut before [DONE], malformed JSON, vectors of the wrong dimension.
import { wordVector } from "./word-vectors";

export type Failure =
  | { kind: "status"; status: number; message?: string }
  | { kind: "hang" } // accepts the request, never answers
  | { kind: "hang-mid-stream" } // streams a first piece, then goes silent
  | { kind: "cut" } // streams a first piece, then closes without finish_reason or [DONE]
  | { kind: "garbage" }; // 200 with a body that is not JSON (or SSE data that is not)

export interface OpenAiStandinOptions {
  /** Bearer key (or Azure api-key) required; unset = no auth. A wrong key's 401 echoes it, as OpenAI does. */
  apiKey?: string;
  models?: string[];
  embedDim?: number;
}

export interface Recorded {
  method: string;
  path: string;
  query: string;
  headers: Record<string, string>;
  body: any;
}

export interface OpenAiStandin {
  url: string;
  requests: Recorded[];
  setReply(fn: (body: any) => string): void;
  setFailure(f: Failure | null): void;
  /** The next `times` requests answer 429 with this Retry-After (seconds, as sent). */
  rateLimit(times: number, retryAfter: string | null): void;
  setEmbedDim(dim: number): void;
  /** Answer `stream: true` with one JSON completion, as a few servers do. */
  setIgnoreStream(ignore: boolean): void;
  /** Most embedding requests in flight at once so far. */
  maxEmbedInFlight(): number;
  stop(): Promise<void>;
}

export const OPENAI_DEFAULT_REPLY = "The stand-in model answers from the pages.";

export function startOpenAiStandin(opts: OpenAiStandinOptions = {}): OpenAiStandin {
  let reply = (_body: any) => OPENAI_DEFAULT_REPLY;
  let failure: Failure | null = null;
  let limited: { times: number; retryAfter: string | null } = { times: 0, retryAfter: null };
  let embedDim = opts.embedDim ?? 32;
  let inFlight = 0;
  let ignoreStream = false;
  let maxInFlight = 0;
  const models = new Set(opts.models ?? ["qwen2.5", "text-embed"]);
  const requests: Recorded[] = [];
  const hanging = new Set<() => void>();

  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    idleTimeout: 0,
    async fetch(req) {
      const url = new URL(req.url);
      const text = req.method === "POST" ? await req.text() : "";
      let body: any;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        return apiError(400, "We could not parse the JSON body of your request.", "invalid_request_error");
      }
      requests.push({ method: req.method, path: url.pathname, query: url.search, headers: Object.fromEntries(req.headers as unknown as Iterable<[string, string]>), body });
      const azure = url.pathname.startsWith("/openai/");
      if (azure && !url.searchParams.get("api-version")) return apiError(404, "Resource not found", "404");
      const given = azure ? req.headers.get("api-key") : req.headers.get("authorization")?.replace(/^Bearer /, "");
      if (opts.apiKey && given !== opts.apiKey) {
        return apiError(401, `Incorrect API key provided: ${given ?? ""}. You can find your API key at https://example.invalid.`, "invalid_request_error", "invalid_api_key");
      }
      if (limited.times > 0) {
        limited.times--;
        const headers: Record<string, string> = limited.retryAfter === null ? {} : { "retry-after": limited.retryAfter };
        return Response.json({ error: { message: "Rate limit reached for requests", type: "requests", code: "rate_limit_exceeded" } }, { status: 429, headers });
      }
      if (failure?.kind === "status") return apiError(failure.status, failure.message ?? `stand-in failure (HTTP ${failure.status})`, "server_error");
      if (failure?.kind === "hang") return new Promise<Response>((resolve) => hanging.add(() => resolve(new Response("", { status: 499 }))));

      const route = routeOf(req.method, url.pathname);
      if (route === "models") return Response.json({ object: "list", data: [...models].map((id) => ({ id, object: "model", created: 0, owned_by: "standin" })) });
      if (!route) return apiError(404, `Unknown request URL: ${req.method} ${url.pathname}`, "invalid_request_error");
      // Azure names the model by its deployment, in the path.
      const model = route.deployment ?? body?.model;
      if (typeof model !== "string" || !models.has(model)) {
        return apiError(404, `The model \`${model}\` does not exist or you do not have access to it.`, "invalid_request_error", "model_not_found");
      }
      const garbage = () => new Response("<html>upstream proxy error", { status: 200, headers: { "content-type": "application/json" } });
      if (route.kind === "embeddings") {
        if (failure?.kind === "garbage") return garbage();
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        try {
          await Bun.sleep(5); // overlapping requests overlap on the wire
          return embeddings(body, model, embedDim);
        } finally {
          inFlight--;
        }
      }
      if (!Array.isArray(body?.messages) || body.messages.length === 0) return apiError(400, "'messages' is a required property", "invalid_request_error");
      const answer = reply(body);
      if (body.stream !== true || ignoreStream) return failure?.kind === "garbage" ? garbage() : Response.json(completion(model, answer));
      return streamed(model, answer, failure, hanging);
    },
  });

  return {
    url: `http://127.0.0.1:${server.port}`,
    requests,
    setReply: (fn) => {
      reply = fn;
    },
    setFailure: (f) => {
      failure = f;
    },
    rateLimit: (times, retryAfter) => {
      limited = { times, retryAfter };
    },
    setEmbedDim: (dim) => {
      embedDim = dim;
    },
    maxEmbedInFlight: () => maxInFlight,
    setIgnoreStream: (ignore) => {
      ignoreStream = ignore;
    },
    async stop() {
      for (const release of hanging) release();
      await server.stop(true);
    },
  };
}

function routeOf(method: string, path: string): { kind: "chat" | "embeddings"; deployment?: string } | "models" | null {
  if (method === "GET" && (path === "/v1/models" || path === "/openai/models")) return "models";
  if (method !== "POST") return null;
  if (path === "/v1/chat/completions") return { kind: "chat" };
  if (path === "/v1/embeddings") return { kind: "embeddings" };
  const azure = path.match(/^\/openai\/deployments\/([^/]+)\/(chat\/completions|embeddings)$/);
  if (azure) return { kind: azure[2] === "embeddings" ? "embeddings" : "chat", deployment: decodeURIComponent(azure[1]!) };
  return null;
}

const apiError = (status: number, message: string, type: string, code: string | null = null) =>
  Response.json({ error: { message, type, param: null, code } }, { status });

function completion(model: string, answer: string) {
  return {
    id: "chatcmpl-standin",
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: { role: "assistant", content: answer }, logprobs: null, finish_reason: "stop" }],
    usage: { prompt_tokens: 1, completion_tokens: answer.length, total_tokens: answer.length + 1 },
  };
}

function chunk(model: string, delta: Record<string, string>, finish: string | null) {
  return { id: "chatcmpl-standin", object: "chat.completion.chunk", created: Math.floor(Date.now() / 1000), model, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] };
}

function streamed(model: string, answer: string, failure: Failure | null, hanging: Set<() => void>): Response {
  const pieces = answer.match(/\s*\S+\s*|\s+/g) ?? [];
  const events = [
    `data: ${JSON.stringify(chunk(model, { role: "assistant", content: "" }, null))}\n\n`,
    ...pieces.map((p) => `data: ${JSON.stringify(chunk(model, { content: p }, null))}\n\n`),
    `data: ${JSON.stringify(chunk(model, {}, "stop"))}\n\n`,
    "data: [DONE]\n\n",
  ];
  const cutAfter = failure?.kind === "cut" || failure?.kind === "hang-mid-stream" ? 2 : Infinity;
  let sent = 0;
  const body = new ReadableStream({
    async pull(controller) {
      if (sent === cutAfter) {
        if (failure?.kind === "cut") return controller.close();
        // Released at stop(); the client may have gone (and the stream closed) long before.
        return new Promise<void>((resolve) => hanging.add(() => (closeQuietly(controller), resolve())));
      }
      const next = failure?.kind === "garbage" ? "data: {not json\n\n" : events[sent];
      if (next === undefined || (failure?.kind === "garbage" && sent > 0)) return controller.close();
      sent++;
      controller.enqueue(new TextEncoder().encode(next));
      await Bun.sleep(0);
    },
  });
  return new Response(body, { headers: { "content-type": "text/event-stream", "cache-control": "no-cache" } });
}

function closeQuietly(controller: ReadableStreamDefaultController) {
  try {
    controller.close();
  } catch {
    // already closed by the client's cancel
  }
}

function embeddings(body: any, model: string, dim: number): Response {
  const inputs: unknown[] = Array.isArray(body?.input) ? body.input : [body?.input];
  if (inputs.length === 0 || inputs.some((i) => typeof i !== "string" || i === "")) {
    return apiError(400, "'$.input' is invalid. Please check the API reference.", "invalid_request_error");
  }
  return Response.json({
    object: "list",
    data: (inputs as string[]).map((text, index) => ({ object: "embedding", index, embedding: wordVector(text, dim) })),
    model,
    usage: { prompt_tokens: inputs.length, total_tokens: inputs.length },
  });
}
