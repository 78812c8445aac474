// The remote embedder against the OpenAI and Ollama stand-ins: batches and concurrency bounded, order
// kept, 429 waited out, and a dimension other than the expected or stored one refused.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { loadRemoteEmbedder, RemoteEmbedderError, type RemoteEmbedderOptions } from "../../src/ai/remote-embedder.ts";
import { startOpenAiStandin, type OpenAiStandin } from "../support/openai-standin.ts";
import { startOllamaStandin, type OllamaStandin } from "../support/ollama-standin.ts";
import { wordVector } from "../support/word-vectors.ts";

const KEY = "sk-embed-secret-abcdef123456";
let server: OpenAiStandin;
let ollama: OllamaStandin;
beforeAll(() => {
  server = startOpenAiStandin({ apiKey: KEY, embedDim: 32 });
  ollama = startOllamaStandin({ embedDim: 24 });
});
afterEach(() => {
  server.setFailure(null);
  server.rateLimit(0, null);
  server.setEmbedDim(32);
});
afterAll(async () => {
  await server.stop();
  await ollama.stop();
});

const options = (extra: Partial<RemoteEmbedderOptions> = {}): RemoteEmbedderOptions => ({
  provider: "openai",
  url: server.url,
  model: "text-embed",
  apiKey: KEY,
  timeoutMs: 5_000,
  batchSize: 3,
  concurrency: 2,
  maxChars: 2_000,
  ...extra,
});
/** An embedder whose start probe has finished (status() waits for it), so request counts are its own. */
async function loaded(o: RemoteEmbedderOptions) {
  const embedder = loadRemoteEmbedder(o);
  await embedder.status();
  return embedder;
}
const failure = (p: Promise<unknown>) => p.then(() => undefined, (e: unknown) => e);
const embedRequests = () => server.requests.filter((r) => r.path.endsWith("/embeddings"));

describe("OpenAI-compatible /v1/embeddings", () => {
  test("one unit vector per text in input order, in bounded batches and concurrency", async () => {
    const embedder = await loaded(options());
    expect(embedder.model).toBe("openai:text-embed");
    expect(await embedder.status()).toEqual({ reachable: true });
    expect(embedder.dim).toBe(32);
    const texts = Array.from({ length: 10 }, (_, i) => `text number ${i} about item${i}`);
    const before = embedRequests().length;
    const vectors = await embedder.embed(texts);
    const sent = embedRequests().slice(before);
    expect(sent.map((r) => r.body.input.length)).toEqual([3, 3, 3, 1]);
    expect(sent.every((r) => r.headers.authorization === `Bearer ${KEY}`)).toBe(true);
    expect(server.maxEmbedInFlight()).toBeLessThanOrEqual(2);
    vectors.forEach((v, i) => {
      expect(Math.hypot(...v)).toBeCloseTo(1, 5);
      expect(Array.from(v)[0]).toBeCloseTo(wordVector(texts[i]!, 32)[0]!, 5);
    });
  });

  test("long texts are cut to maxChars; an empty one is sent as a space", async () => {
    const embedder = await loaded(options({ maxChars: 100 }));
    await embedder.embed(["x".repeat(500), ""]);
    expect(embedRequests().at(-1)!.body.input).toEqual(["x".repeat(100), " "]);
  });

  test("a 429 with Retry-After is waited out; one asking for an hour fails the batch", async () => {
    const embedder = await loaded(options());
    server.rateLimit(2, "0");
    expect(await embedder.embed(["after the limit"])).toHaveLength(1);
    server.rateLimit(1, "3600");
    const e = await failure(embedder.embed(["limited"]));
    expect(e).toBeInstanceOf(RemoteEmbedderError);
    expect((e as Error).message).toContain("HTTP 429");
  });

  test("Azure: the deployment's embeddings path with api-version and api-key", async () => {
    const embedder = await loaded(options({ provider: "azure", apiVersion: "2024-10-21" }));
    await embedder.embed(["azure"]);
    const sent = embedRequests().at(-1)!;
    expect(sent.path).toBe("/openai/deployments/text-embed/embeddings");
    expect(sent.headers["api-key"]).toBe(KEY);
    expect(embedder.model).toBe("azure:text-embed");
  });

  test("failures are RemoteEmbedderError without the key: refused key, unknown model, garbage, hang", async () => {
    const wrong = await loaded(options({ apiKey: `${KEY}-old` }));
    const refused = await failure(wrong.embed(["x"]));
    expect(refused).toBeInstanceOf(RemoteEmbedderError);
    expect((refused as Error).message).toContain("refused the API key");
    expect((refused as Error).message).not.toContain(KEY);
    expect((await wrong.status()).reachable).toBe(false);

    const unknown = await failure((await loaded(options({ model: "nope" }))).embed(["x"]));
    expect((unknown as Error).message).toContain("'nope'");

    const embedder = await loaded(options({ timeoutMs: 150 }));
    server.setFailure({ kind: "garbage" });
    expect(await failure(embedder.embed(["x"]))).toBeInstanceOf(RemoteEmbedderError);
    server.setFailure({ kind: "hang" });
    expect(((await failure(embedder.embed(["x"]))) as Error).message).toContain("did not answer within 150 ms");
  });
});

describe("the dimension", () => {
  test("BRAINBOX_EMBED_DIM other than the server's: refused at load, every call refused, status says why", async () => {
    const embedder = await loaded(options({ expectedDim: 768 }));
    const e = await failure(embedder.embed(["x"]));
    expect(e).toBeInstanceOf(RemoteEmbedderError);
    expect((e as Error).message).toContain("32-dimension vectors");
    expect((e as Error).message).toContain("BRAINBOX_EMBED_DIM is 768");
    expect((await embedder.status()).refused).toContain("refused");
  });

  test("vectors already stored under this model with another dimension: refused", async () => {
    const embedder = await loaded(options({ storedDim: async (model) => (model === "openai:text-embed" ? 16 : undefined) }));
    expect(((await failure(embedder.embed(["x"]))) as Error).message).toContain("holds 16-dimension vectors");
  });

  test("the server changing dimension mid-run: the batch fails whole", async () => {
    const embedder = await loaded(options());
    server.setEmbedDim(48);
    const e = await failure(embedder.embed(["a", "b", "c", "d"]));
    expect((e as Error).message).toContain("48-dimension vector, expected 32");
  });

  test("a server down at start: loaded without a dimension, learned on the first answer", async () => {
    server.setFailure({ kind: "status", status: 503 });
    const embedder = await loaded(options());
    expect((await embedder.status()).reachable).toBe(false);
    expect(embedder.dim).toBe(0);
    server.setFailure(null);
    expect((await embedder.embed(["back"]))[0]).toHaveLength(32);
    expect(embedder.dim).toBe(32);
  });
});

describe("Ollama /api/embed", () => {
  test("vectors from the embeddings field, the identity names the provider", async () => {
    const embedder = await loaded({ ...options(), provider: "ollama", url: ollama.url, model: "nomic-embed-text", apiKey: undefined });
    expect(embedder.model).toBe("ollama:nomic-embed-text");
    expect(await embedder.status()).toEqual({ reachable: true });
    expect(embedder.dim).toBe(24);
    const vectors = await embedder.embed(["one", "two", "three", "four"]);
    expect(vectors).toHaveLength(4);
    const calls = ollama.requests.filter((r) => r.path === "/api/embed").slice(-2);
    expect(calls.map((c) => c.body.input.length).sort()).toEqual([1, 3]);
    expect(calls.every((c) => c.body.model === "nomic-embed-text")).toBe(true);
    const missing = await loaded({ ...options(), provider: "ollama", url: ollama.url, model: "mxbai", apiKey: undefined });
    expect(((await failure(missing.embed(["x"]))) as Error).message).toContain("HTTP 404");
  });
});
