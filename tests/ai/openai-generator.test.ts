// The OpenAI-compatible and Azure generators against the loopback stand-in speaking their wire protocol:
// JSON and server-sent-event answers, and every failure becoming GeneratorUnavailableError without the key.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { GeneratorUnavailableError, type ChatMessage } from "../../src/ai/generator.ts";
import { createOpenAiGenerator } from "../../src/ai/openai-generator.ts";
import { endpoint, retryAfterMs } from "../../src/ai/model-server.ts";
import { ConfigError, loadConfig } from "../../src/config.ts";
import { OPENAI_DEFAULT_REPLY, startOpenAiStandin, type OpenAiStandin } from "../support/openai-standin.ts";

const KEY = "sk-standin-secret-0123456789";
let server: OpenAiStandin;
const question: ChatMessage[] = [
  { role: "system", content: "Answer from the pages." },
  { role: "user", content: "What is a brain?" },
];
const failure = (p: Promise<unknown>) => p.then(() => undefined, (e: unknown) => e);
const openai = (extra: { url?: string; apiKey?: string; model?: string; timeoutMs?: number } = {}) =>
  createOpenAiGenerator({ provider: "openai", url: `${server.url}/v1`, model: "qwen2.5", apiKey: KEY, ...extra });

beforeAll(() => {
  server = startOpenAiStandin({ apiKey: KEY });
});
afterEach(() => {
  server.setFailure(null);
  server.rateLimit(0, null);
  server.setReply(() => OPENAI_DEFAULT_REPLY);
});
afterAll(() => server.stop());

async function closedPortUrl(): Promise<string> {
  const s = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const url = `http://127.0.0.1:${s.port}`;
  await s.stop(true);
  return url;
}

/** The failure of both modes (JSON and streaming), each checked the same way. */
async function bothModes(check: (error: unknown) => void, generator = openai()) {
  for (const opts of [{}, { onToken: () => {} }]) check(await failure(generator.chat(question, opts)));
}

describe("answers", () => {
  test("JSON: model, messages and temperature sent with the bearer key, the content returned", async () => {
    expect(await openai().chat(question, { temperature: 0 })).toBe(OPENAI_DEFAULT_REPLY);
    const sent = server.requests.at(-1)!;
    expect(sent.path).toBe("/v1/chat/completions");
    expect(sent.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(sent.body).toEqual({ model: "qwen2.5", messages: question, stream: false, temperature: 0 });
  });

  test("streaming: each SSE delta in order, joined exactly, ending at [DONE]", async () => {
    server.setReply(() => "Feed the starter  every day [[sourdough]].\nIt doubles.");
    const pieces: string[] = [];
    const text = await openai().chat(question, { onToken: (t) => pieces.push(t) });
    expect(text).toBe("Feed the starter  every day [[sourdough]].\nIt doubles.");
    expect(pieces.length).toBeGreaterThan(3);
    expect(pieces.join("")).toBe(text);
    expect(server.requests.at(-1)!.body.stream).toBe(true);
  });

  test("a server that ignores stream:true and answers JSON: one piece, the whole answer", async () => {
    server.setIgnoreStream(true);
    try {
      const pieces: string[] = [];
      expect(await openai().chat(question, { onToken: (t) => pieces.push(t) })).toBe(OPENAI_DEFAULT_REPLY);
      expect(pieces).toEqual([OPENAI_DEFAULT_REPLY]);
    } finally {
      server.setIgnoreStream(false);
    }
  });

  test("a base URL without /v1 reaches the same endpoint", async () => {
    expect(await openai({ url: server.url }).chat(question)).toBe(OPENAI_DEFAULT_REPLY);
    expect(server.requests.at(-1)!.path).toBe("/v1/chat/completions");
  });

  test("Azure: the deployment path, api-version and the api-key header (no bearer)", async () => {
    const azure = createOpenAiGenerator({ provider: "azure", url: server.url, model: "qwen2.5", apiKey: KEY, apiVersion: "2024-10-21" });
    expect(azure.name).toBe("azure:qwen2.5");
    expect(await azure.chat(question, { onToken: () => {} })).toBe(OPENAI_DEFAULT_REPLY);
    const sent = server.requests.at(-1)!;
    expect(sent.path).toBe("/openai/deployments/qwen2.5/chat/completions");
    expect(sent.query).toBe("?api-version=2024-10-21");
    expect(sent.headers["api-key"]).toBe(KEY);
    expect(sent.headers.authorization).toBeUndefined();
    expect(await azure.ping()).toEqual({ ok: true });
  });

  test("a 429 with a short Retry-After is waited out and the answer comes", async () => {
    server.rateLimit(2, "0");
    const before = server.requests.length;
    expect(await openai().chat(question)).toBe(OPENAI_DEFAULT_REPLY);
    expect(server.requests.length - before).toBe(3);
  });
});

describe("failures become GeneratorUnavailableError, never with the key", () => {
  const noKey = (e: unknown) => expect(String((e as Error).message)).not.toContain(KEY);

  test("connection refused", async () => {
    await bothModes((e) => {
      expect(e).toBeInstanceOf(GeneratorUnavailableError);
      expect((e as Error).message).toContain("is not reachable");
    }, createOpenAiGenerator({ provider: "openai", url: await closedPortUrl(), model: "qwen2.5", apiKey: KEY }));
  });

  test("401 with the key echoed back by the server: status kept, key scrubbed", async () => {
    const wrong = `${KEY}-old`;
    await bothModes((e) => {
      expect(e).toBeInstanceOf(GeneratorUnavailableError);
      expect((e as GeneratorUnavailableError).status).toBe(401);
      expect((e as Error).message).toContain("refused the API key");
      expect((e as Error).message).not.toContain(wrong);
      noKey(e);
    }, openai({ apiKey: wrong }));
  });

  test("403, 404 model, 500, 503 carry their status", async () => {
    for (const status of [403, 500, 503]) {
      server.setFailure({ kind: "status", status });
      await bothModes((e) => expect((e as GeneratorUnavailableError).status).toBe(status));
    }
    server.setFailure(null);
    await bothModes((e) => {
      expect((e as GeneratorUnavailableError).status).toBe(404);
      expect((e as Error).message).toContain("'mistral'");
    }, openai({ model: "mistral" }));
  });

  test("a 429 asking for longer than the bound fails at once; endless 429s stop after the retries", async () => {
    server.rateLimit(1, "3600");
    const before = server.requests.length;
    const e = await failure(openai().chat(question));
    expect((e as GeneratorUnavailableError).status).toBe(429);
    expect((e as Error).message).toContain("asks to wait 3600 s");
    expect(server.requests.length - before).toBe(1);
    server.rateLimit(100, "0");
    const again = await failure(openai().chat(question));
    expect((again as Error).message).toContain("still after 3 attempts");
  });

  test("malformed JSON, streaming or not", async () => {
    server.setFailure({ kind: "garbage" });
    await bothModes((e) => {
      expect(e).toBeInstanceOf(GeneratorUnavailableError);
      expect((e as Error).message).toContain("malformed JSON");
    });
  });

  test("a stream cut before [DONE] is no answer, though pieces came", async () => {
    server.setFailure({ kind: "cut" });
    const pieces: string[] = [];
    const e = await failure(openai().chat(question, { onToken: (t) => pieces.push(t) }));
    expect(e).toBeInstanceOf(GeneratorUnavailableError);
    expect((e as Error).message).toContain("ended before the answer did");
    expect(pieces.length).toBeGreaterThan(0);
  });

  test("a server that hangs, before answering or mid-stream, times out", async () => {
    server.setFailure({ kind: "hang" });
    await bothModes((e) => {
      expect(e).toBeInstanceOf(GeneratorUnavailableError);
      expect((e as Error).message).toContain("did not answer within 150 ms");
    }, openai({ timeoutMs: 150 }));
    server.setFailure({ kind: "hang-mid-stream" });
    const e = await failure(openai({ timeoutMs: 150 }).chat(question, { onToken: () => {} }));
    expect((e as Error).message).toContain("did not answer within 150 ms");
  });

  test("the caller's abort stays an abort", async () => {
    server.setFailure({ kind: "hang" });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const e = await failure(openai().chat(question, { signal: controller.signal }));
    expect(e).not.toBeInstanceOf(GeneratorUnavailableError);
    expect((e as Error).name).toBe("AbortError");
  });

  test("a callback that throws is the caller's error", async () => {
    const e = await failure(openai().chat(question, { onToken: () => { throw new RangeError("mine"); } }));
    expect(e).toBeInstanceOf(RangeError);
  });
});

describe("ping and helpers", () => {
  test("ping: reachable, refused key, closed port", async () => {
    expect(await openai().ping()).toEqual({ ok: true });
    const refused = await openai({ apiKey: "sk-wrong-key-000" }).ping();
    expect(refused.ok).toBe(false);
    expect(refused.error).toContain("HTTP 401");
    expect(refused.error).not.toContain("sk-wrong-key-000");
    const down = await createOpenAiGenerator({ provider: "openai", url: await closedPortUrl(), model: "m" }).ping();
    expect(down.ok).toBe(false);
  });

  test("Retry-After in seconds, as a date, and OpenAI's retry-after-ms", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(retryAfterMs(new Headers({ "retry-after": "2" }), now)).toBe(2000);
    expect(retryAfterMs(new Headers({ "retry-after": "Thu, 01 Jan 2026 00:00:05 GMT" }), now)).toBe(5000);
    expect(retryAfterMs(new Headers({ "retry-after-ms": "250", "retry-after": "9" }), now)).toBe(250);
    expect(retryAfterMs(new Headers({ "retry-after": "soon" }), now)).toBeUndefined();
  });

  test("endpoints per provider", () => {
    const t = { model: "m", url: "http://h:1" };
    expect(endpoint({ ...t, provider: "openai" }, "embeddings")).toBe("http://h:1/v1/embeddings");
    expect(endpoint({ ...t, provider: "openai", url: "http://h:1/api/v1/" }, "chat/completions")).toBe("http://h:1/api/v1/chat/completions");
    expect(endpoint({ ...t, provider: "azure", apiVersion: "v" }, "embeddings")).toBe("http://h:1/openai/deployments/m/embeddings?api-version=v");
  });

  test("needs a url and a model, and no Ollama", () => {
    expect(() => createOpenAiGenerator({ provider: "openai", url: "", model: "m" })).toThrow(TypeError);
    expect(() => createOpenAiGenerator({ provider: "openai", url: server.url, model: "" })).toThrow(TypeError);
    expect(() => createOpenAiGenerator({ provider: "ollama", url: server.url, model: "m" })).toThrow(TypeError);
  });
});

describe("configuration", () => {
  const problems = (env: Record<string, string>) => {
    try {
      loadConfig({ BRAINBOX_DATA_DIR: "/tmp/x", ...env });
      return [];
    } catch (e) {
      return (e as ConfigError).problems;
    }
  };

  test("a remote server needs a model; one generation server at a time; keys need their URL", () => {
    expect(problems({ BRAINBOX_LLM_URL: "http://h:8000/v1" })).toEqual(["BRAINBOX_LLM_URL needs BRAINBOX_LLM_MODEL (Azure: the deployment name)"]);
    expect(problems({ BRAINBOX_LLM_URL: "http://h:11434", BRAINBOX_LLM_PROVIDER: "ollama" })).toEqual([]);
    expect(problems({ BRAINBOX_LLM_URL: "http://h:1", BRAINBOX_LLM_MODEL: "m", BRAINBOX_OLLAMA_URL: "http://h:2" })[0]).toContain("both set");
    expect(problems({ BRAINBOX_LLM_API_KEY: "sk-x" })).toEqual(["BRAINBOX_LLM_MODEL and BRAINBOX_LLM_API_KEY need BRAINBOX_LLM_URL"]);
    expect(problems({ BRAINBOX_EMBED_URL: "http://h:1" })).toEqual(["BRAINBOX_EMBED_URL needs BRAINBOX_EMBED_MODEL (the server's model name)"]);
    expect(problems({ BRAINBOX_LLM_PROVIDER: "anthropic" })[0]).toContain("must be one of openai, azure, ollama");
  });
});
