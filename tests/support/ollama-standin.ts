// A loopback stand-in speaking Ollama's HTTP API (no Ollama server can be installed here).
// Shapes follow https://github.com/ollama/ollama/blob/main/docs/api.md: JSON answers, NDJSON streams ending
// with a `done:true` line, errors as `{error}` with an HTTP error status.
import { wordVector } from "./word-vectors";

export type ReplyFn = (body: any) => string | Promise<string>;

export interface OllamaStandinOptions {
  /** Answer text for /api/chat and /api/generate; receives the parsed request body. */
  reply?: ReplyFn;
  /** Every /api request fails with this HTTP status and an `{error}` body. */
  failWith?: number;
  /** Wait this long before answering (to exercise timeouts). */
  delayMs?: number;
  /** Installed models; a name without a tag means ":latest", as in Ollama. */
  models?: string[];
  /** Dimension of /api/embed vectors (16 unless given). */
  embedDim?: number;
  /** /api/embed answers word vectors (tests/support/word-vectors.ts: synonyms are close) instead of hashes. */
  wordVectors?: boolean;
}

export interface OllamaStandin {
  url: string;
  /** Every request received: method, path, parsed JSON body (if any) and headers. */
  requests: { method: string; path: string; body: any; headers: Record<string, string> }[];
  setReply(fn: ReplyFn): void;
  setFail(status: number | null): void;
  setEmbedDim(dim: number): void;
  stop(): Promise<void>;
}

export const DEFAULT_REPLY = "This is the stand-in answer.";
const EMBED_DIM = 16;
const VERSION = "0.6.4-standin";

export function startOllamaStandin(opts: OllamaStandinOptions = {}): OllamaStandin {
  let reply: ReplyFn = opts.reply ?? (() => DEFAULT_REPLY);
  let failWith = opts.failWith ?? null;
  const installed = new Set((opts.models ?? ["llama3.2", "nomic-embed-text"]).map(withTag));
  const requests: OllamaStandin["requests"] = [];
  let embedDim = opts.embedDim ?? EMBED_DIM;
  const vectorOf = (text: string) => (opts.wordVectors ? wordVector(text, embedDim) : hashVector(text, embedDim));

  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(req) {
      const path = new URL(req.url).pathname;
      const text = req.method === "POST" ? await req.text() : "";
      let body: any = undefined;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        return error(400, "invalid character in request body");
      }
      requests.push({ method: req.method, path, body, headers: Object.fromEntries(req.headers as unknown as Iterable<[string, string]>) });
      if (opts.delayMs) await Bun.sleep(opts.delayMs);
      if (failWith !== null) return error(failWith, `stand-in failure (HTTP ${failWith})`);

      const route = `${req.method} ${path}`;
      if (route === "GET /api/version") return Response.json({ version: VERSION });
      if (route === "GET /api/tags") return Response.json({ models: [...installed].map(modelEntry) });
      if (route === "POST /api/chat" || route === "POST /api/generate" || route === "POST /api/embed") {
        if (typeof body?.model !== "string" || !body.model) return error(400, "model is required");
        if (!installed.has(withTag(body.model))) return error(404, `model '${body.model}' not found`);
        if (route === "POST /api/embed") return embed(body, vectorOf);
        const isChat = route === "POST /api/chat";
        if (isChat && !Array.isArray(body.messages ?? [])) return error(400, "messages must be an array");
        let answer: string;
        try {
          answer = await reply(body);
        } catch (e) {
          return error(500, e instanceof Error ? e.message : String(e));
        }
        // Ollama streams unless the request says `stream: false`.
        return body.stream === false ? Response.json(final(body.model, isChat, answer)) : stream(body.model, isChat, answer);
      }
      return error(404, "404 page not found");
    },
  });

  return {
    url: `http://127.0.0.1:${server.port}`,
    requests,
    setReply: (fn) => {
      reply = fn;
    },
    setFail: (status) => {
      failWith = status;
    },
    setEmbedDim: (dim) => {
      embedDim = dim;
    },
    stop: () => server.stop(true),
  };
}

const withTag = (name: string) => (name.includes(":") ? name : `${name}:latest`);
const now = () => new Date().toISOString();
const error = (status: number, message: string) => Response.json({ error: message }, { status });

function modelEntry(name: string) {
  return {
    name,
    model: name,
    modified_at: now(),
    size: 1_000_000,
    digest: Bun.hash(name).toString(16).padStart(64, "0"),
    details: { format: "gguf", family: "standin", families: ["standin"], parameter_size: "1M", quantization_level: "F16" },
  };
}

// The text piece of a chat or generate line (chat: message.content, generate: response).
function piece(isChat: boolean, content: string) {
  return isChat ? { message: { role: "assistant", content } } : { response: content };
}

function final(model: string, isChat: boolean, answer: string) {
  return {
    model,
    created_at: now(),
    ...piece(isChat, answer),
    done: true,
    done_reason: "stop",
    total_duration: 1_000_000,
    load_duration: 100_000,
    prompt_eval_count: 1,
    prompt_eval_duration: 100_000,
    eval_count: answer.length,
    eval_duration: 800_000,
  };
}

function stream(model: string, isChat: boolean, answer: string): Response {
  // Word-sized pieces, whitespace kept, so joining the pieces gives the answer back exactly.
  const pieces = answer.match(/\s*\S+\s*|\s+/g) ?? [];
  const lines = [
    ...pieces.map((p) => ({ model, created_at: now(), ...piece(isChat, p), done: false })),
    final(model, isChat, ""),
  ];
  const body = new ReadableStream({
    async pull(controller) {
      const line = lines.shift();
      if (!line) return controller.close();
      controller.enqueue(new TextEncoder().encode(JSON.stringify(line) + "\n"));
      await Bun.sleep(0); // separate chunks on the wire, as a real token stream
    },
  });
  return new Response(body, { headers: { "content-type": "application/x-ndjson" } });
}

function embed(body: any, vectorOf: (text: string) => number[]): Response {
  const inputs: unknown[] = Array.isArray(body.input) ? body.input : [body.input];
  if (inputs.some((i) => typeof i !== "string")) return error(400, "input must be a string or an array of strings");
  return Response.json({
    model: body.model,
    embeddings: (inputs as string[]).map(vectorOf),
    total_duration: 1_000_000,
    load_duration: 100_000,
    prompt_eval_count: inputs.length,
  });
}

/** A deterministic unit vector from the text: equal texts, equal vectors. */
function hashVector(text: string, dim: number): number[] {
  const v = Array.from({ length: dim }, (_, i) => Number(BigInt(Bun.hash(`${i}:${text}`)) % 2001n) / 1000 - 1);
  const norm = Math.hypot(...v) || 1;
  return v.map((x) => x / norm);
}
