// Embeddings from a model server over real HTTP: pages ingested get the server's vectors and a synonym
// finds its page by vector alone; the server down → pages written lexical, embedded once it is back; a wrong
// dimension refused at start (lexical, nothing written); another model → every page re-embedded.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { loadConfig } from "../../src/config";
import { createLogger } from "../../src/lib/log";
import { startServer, type Running } from "../../src/runtime";
import { answerService } from "../../src/modules/answer";
import { startOpenAiStandin, type OpenAiStandin } from "../support/openai-standin";
import { startOllamaStandin, type OllamaStandin } from "../support/ollama-standin";
import { addText, waitForSource } from "../support/sources";
import { tempDir } from "../support/temp-dirs";
import { waitFor } from "../support/wait";

const KEY = "sk-embed-http-key-77c0ffee";
let standin: OpenAiStandin;
let ollama: OllamaStandin;
const dataDir = tempDir();
const logs: string[] = [];
const REMOTE = { BRAINBOX_EMBED_URL: "", BRAINBOX_EMBED_MODEL: "text-embed", BRAINBOX_EMBED_API_KEY: KEY, BRAINBOX_JOB_RETRY_BASE_MS: "20" };

let server: Running & { key: string };
let brainId: string;
/** Vectors under the first model when its server is stopped. */
let embedded = 0;

async function start(env: Record<string, string>): Promise<Running> {
  return startServer(loadConfig({ BRAINBOX_PORT: "0", BRAINBOX_DATA_DIR: dataDir, ...env }), createLogger("debug", (line) => logs.push(line)));
}
const api = (r: Running, key: string) => ({
  ctx: r.ctx,
  api: (path: string, init: { method?: string; json?: unknown } = {}) =>
    fetch(r.url + path, {
      method: init.method ?? "GET",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: init.json === undefined ? undefined : JSON.stringify(init.json),
    }),
});
const health = async (r: Running) => (await fetch(`${r.url}/api/health`)).json();
const vectorCounts = async (r: Running) =>
  Object.fromEntries((await r.ctx.database.client.execute("SELECT model, count(*) AS n FROM page_vectors GROUP BY model")).rows.map((row: any) => [row.model, Number(row.n)]));
const pageCount = async (r: Running) => Number((await r.ctx.database.client.execute("SELECT count(*) AS n FROM pages")).rows[0]!.n);

beforeAll(async () => {
  standin = startOpenAiStandin({ apiKey: KEY, embedDim: 32 });
  ollama = startOllamaStandin({ embedDim: 24, wordVectors: true });
  REMOTE.BRAINBOX_EMBED_URL = `${standin.url}/v1`;
  const running = await start(REMOTE);
  server = { ...running, key: running.firstKey!.key };
  const { brain } = await (await api(server, server.key).api("/api/v1/brains", { method: "POST", json: { name: "Garage" } })).json();
  brainId = brain.id;
  for (const [title, text] of [
    ["Car Repair", "Our car needs new brake pads and an oil change at the garage every spring."],
    ["Tomato Garden", "Tomatoes grow best in full sun with deep watering twice a week."],
  ]) {
    const { source } = await addText(api(server, server.key), brainId, title!, text!);
    await waitForSource(api(server, server.key), brainId, source.id);
  }
});
afterAll(async () => {
  await server?.stop().catch(() => undefined);
  await standin.stop();
  await ollama.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("remote embeddings", () => {
  test("ingested pages carry the server's vectors; health names the backend", async () => {
    expect(await vectorCounts(server)).toEqual({ "openai:text-embed": await pageCount(server) });
    expect((await health(server)).embedder).toEqual({ active: "openai:text-embed", retrieval: "hybrid", dim: 32, backend: "remote", provider: "openai", model: "openai:text-embed", reachable: true });
  });

  test("a synonym no page contains finds its page by vector", async () => {
    const context = await answerService(server.ctx).context({ brains: [{ id: brainId, name: "Garage", kind: "primary" }], query: "automobile" });
    expect(context.retrieval).toBe("hybrid");
    expect(context.pages[0]!.slug).toBe("car-repair");
    expect(context.pages[0]!.cosine).toBeGreaterThan(0);
  });

  test("the server down: the source is ready without vectors, and embedded once the server is back", async () => {
    standin.setFailure({ kind: "status", status: 503 });
    const { source } = await addText(api(server, server.key), brainId, "Bike Chain", "A bike chain is cleaned and oiled every month.");
    try {
      expect((await waitForSource(api(server, server.key), brainId, source.id, ["ready", "failed"])).status).toBe("ready");
      const h = (await health(server)).embedder;
      expect(h).toMatchObject({ active: "none", retrieval: "lexical", reachable: false });
      expect(h.error).toContain("HTTP 503");
    } finally {
      standin.setFailure(null);
    }
    await waitFor(async () => (await vectorCounts(server))["openai:text-embed"] === (await pageCount(server)));
  });

  test("a page edited while the server is down loses its old vector, and gets the new text's once it is back", async () => {
    const vectorOf = async () =>
      (await server.ctx.database.client.execute({ sql: "SELECT count(*) AS n FROM page_vectors v JOIN pages p ON p.id = v.page_id WHERE p.slug = 'car-repair' AND v.model = 'openai:text-embed'", args: [] })).rows[0]!.n;
    expect(Number(await vectorOf())).toBe(1);
    standin.setFailure({ kind: "status", status: 500 });
    try {
      const res = await api(server, server.key).api(`/api/v1/brains/${brainId}/pages/car-repair`, { method: "PUT", json: { markdown: "The automobile goes to the garage for winter tyres." } });
      expect(res.status).toBe(200);
      expect(Number(await vectorOf())).toBe(0);
    } finally {
      standin.setFailure(null);
    }
    await waitFor(async () => Number(await vectorOf()) === 1);
  });
});

describe("the dimension, and a change of model", () => {
  test("BRAINBOX_EMBED_DIM other than the server's: refused at start, lexical, nothing written", async () => {
    embedded = (await vectorCounts(server))["openai:text-embed"];
    await server.stop();
    // The same data directory: the owner's key still opens it.
    const r = await start({ ...REMOTE, BRAINBOX_EMBED_DIM: "768" });
    try {
      const h = (await health(r)).embedder;
      expect(h).toMatchObject({ active: "none", retrieval: "lexical", backend: "remote" });
      expect(h.error).toContain("BRAINBOX_EMBED_DIM is 768");
      const pagesBefore = await pageCount(r);
      const { source } = await addText(api(r, server.key), brainId, "Lawn Mower", "The lawn mower blade is sharpened each autumn.");
      expect((await waitForSource(api(r, server.key), brainId, source.id)).status).toBe("ready");
      // The new page is written without a vector; the earlier ones keep theirs.
      expect(await pageCount(r)).toBeGreaterThan(pagesBefore);
      expect(await vectorCounts(r)).toEqual({ "openai:text-embed": embedded });
    } finally {
      await r.stop();
    }
  });

  test("the same model name answering another dimension than the stored vectors: refused", async () => {
    standin.setEmbedDim(48);
    const r = await start(REMOTE);
    try {
      const h = (await health(r)).embedder;
      expect(h.retrieval).toBe("lexical");
      expect(h.error).toContain("holds 32-dimension vectors");
    } finally {
      await r.stop();
      standin.setEmbedDim(32);
    }
  });

  test("another provider and model re-embeds every page in the background", async () => {
    const r = await start({ BRAINBOX_EMBED_URL: ollama.url, BRAINBOX_EMBED_PROVIDER: "ollama", BRAINBOX_EMBED_MODEL: "nomic-embed-text" });
    try {
      const pages = await pageCount(r);
      await waitFor(async () => (await vectorCounts(r))["ollama:nomic-embed-text"] === pages);
      expect(await vectorCounts(r)).toEqual({ "openai:text-embed": embedded, "ollama:nomic-embed-text": pages });
      expect((await health(r)).embedder).toMatchObject({ active: "ollama:nomic-embed-text", dim: 24, provider: "ollama", reachable: true });
    } finally {
      await r.stop();
    }
  });

  test("the embedding key is in no log line", () => {
    expect(logs.length).toBeGreaterThan(0);
    for (const line of logs) expect(line).not.toContain(KEY);
    expect(standin.requests.some((q) => q.headers.authorization === `Bearer ${KEY}`)).toBe(true);
  });
});
