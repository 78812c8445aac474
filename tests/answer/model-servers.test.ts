// Answers through an OpenAI-compatible server, Azure OpenAI and an Ollama named by BRAINBOX_LLM_URL, over
// real HTTP against the loopback stand-ins: streaming asks, ingestion through the model, every failure of
// the server → the extractive answer and /api/health saying so, and the API key in no response or log line.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { loadConfig } from "../../src/config";
import { createLogger } from "../../src/lib/log";
import { startServer, type Running } from "../../src/runtime";
import { OPENAI_DEFAULT_REPLY, startOpenAiStandin, type Failure, type OpenAiStandin } from "../support/openai-standin";
import { startOllamaStandin, type OllamaStandin } from "../support/ollama-standin";
import { insertPages } from "../support/pages";
import { addText, waitForSource } from "../support/sources";
import { tempDir } from "../support/temp-dirs";
import { readEvents } from "./sse-client";

const KEY = "sk-brainbox-test-key-5f1e9a7c";
const QUESTION = "How often is a sourdough starter fed with flour and water?";
const PAGES = [
  { title: "Sourdough Starter", markdown: "A sourdough starter is fed with equal weights of flour and water every day. A healthy starter doubles within six hours." },
  { title: "Cast Iron Care", markdown: "Cast iron pans are seasoned with a thin layer of oil baked at 250 degrees. Never soak a cast iron pan in water." },
];

interface Rig extends Running {
  key: string;
  brainId: string;
  logs: string[];
  seen: string[];
  call(path: string, init?: { method?: string; json?: unknown; headers?: Record<string, string>; key?: string | null }): Promise<Response>;
  close(): Promise<void>;
}

/** A server with these settings, its log lines kept and every response body it sent remembered. */
async function rig(env: Record<string, string>): Promise<Rig> {
  const dataDir = tempDir();
  const logs: string[] = [];
  const seen: string[] = [];
  const running = await startServer(loadConfig({ BRAINBOX_PORT: "0", BRAINBOX_DATA_DIR: dataDir, ...env }), createLogger("debug", (line) => logs.push(line)));
  const key = running.firstKey!.key;
  const call: Rig["call"] = async (path, init = {}) => {
    const headers = new Headers(init.headers);
    if (init.key !== null) headers.set("authorization", `Bearer ${init.key ?? key}`);
    if (init.json !== undefined) headers.set("content-type", "application/json");
    const res = await fetch(running.url + path, { method: init.method ?? "GET", headers, body: init.json === undefined ? undefined : JSON.stringify(init.json) });
    const text = await res.text();
    seen.push(text);
    return new Response(text, { status: res.status, headers: res.headers });
  };
  const { brain } = await (await call("/api/v1/brains", { method: "POST", json: { name: "Kitchen" } })).json();
  await insertPages(running.ctx.db, brain.id, PAGES);
  return { ...running, key, brainId: brain.id, logs, seen, call, close: async () => (await running.stop(), rmSync(dataDir, { recursive: true, force: true })) };
}

const ask = (r: Rig, stream = false) =>
  r.call(`/api/brains/${r.brainId}/ask`, { method: "POST", json: { question: QUESTION }, headers: stream ? { accept: "text/event-stream" } : {} });
const health = async (r: Rig) => (await r.call("/api/health", { key: null })).json();

let standin: OpenAiStandin;
let ollama: OllamaStandin;
let openai: Rig;
let azure: Rig;
let viaLlmUrl: Rig;
let refused: Rig;
beforeAll(async () => {
  standin = startOpenAiStandin({ apiKey: KEY });
  ollama = startOllamaStandin();
  const closed = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  const closedUrl = `http://127.0.0.1:${closed.port}/v1`;
  await closed.stop(true);
  [openai, azure, viaLlmUrl, refused] = await Promise.all([
    rig({ BRAINBOX_LLM_URL: `${standin.url}/v1`, BRAINBOX_LLM_MODEL: "qwen2.5", BRAINBOX_LLM_API_KEY: KEY, BRAINBOX_LLM_TIMEOUT_MS: "1500" }),
    rig({ BRAINBOX_LLM_PROVIDER: "azure", BRAINBOX_LLM_URL: standin.url, BRAINBOX_LLM_MODEL: "qwen2.5", BRAINBOX_LLM_API_KEY: KEY }),
    rig({ BRAINBOX_LLM_PROVIDER: "ollama", BRAINBOX_LLM_URL: ollama.url, BRAINBOX_LLM_MODEL: "llama3.2", BRAINBOX_LLM_API_KEY: KEY }),
    rig({ BRAINBOX_LLM_URL: closedUrl, BRAINBOX_LLM_MODEL: "qwen2.5", BRAINBOX_LLM_API_KEY: KEY }),
  ]);
});
afterAll(async () => {
  await Promise.all([openai, azure, viaLlmUrl, refused].map((r) => r?.close()));
  await standin.stop();
  await ollama.stop();
});

const REPLY = "Feed it every day with equal flour and water [[sourdough-starter]].";

describe("answers through each backend", () => {
  test("OpenAI-compatible: the answer, streamed or not, and health names it reachable", async () => {
    standin.setReply(() => REPLY);
    const body = await (await ask(openai)).json();
    expect(body).toMatchObject({ thin: false, answerMd: REPLY });
    expect(standin.requests.at(-1)!.path).toBe("/v1/chat/completions");
    const events = await readEvents(await ask(openai, true));
    expect(events.filter((e) => e.event === "token").map((e) => e.data).join("")).toBe(REPLY);
    expect(events.at(-1)!.event).toBe("done");
    expect((await health(openai)).generator).toEqual({ active: "openai:qwen2.5", provider: "openai", model: "qwen2.5", reachable: true });
  });

  test("Azure OpenAI: the deployment answers, streamed", async () => {
    standin.setReply(() => REPLY);
    const events = await readEvents(await ask(azure, true));
    expect(events.filter((e) => e.event === "token").map((e) => e.data).join("")).toBe(REPLY);
    expect(standin.requests.at(-1)!.path).toBe("/openai/deployments/qwen2.5/chat/completions");
    expect((await health(azure)).generator).toMatchObject({ active: "azure:qwen2.5", reachable: true });
  });

  test("BRAINBOX_LLM_PROVIDER=ollama: Ollama at BRAINBOX_LLM_URL, the key as a bearer (an authenticating proxy)", async () => {
    ollama.setReply(() => REPLY);
    expect(await (await ask(viaLlmUrl)).json()).toMatchObject({ thin: false, answerMd: REPLY });
    const events = await readEvents(await ask(viaLlmUrl, true));
    expect(events.filter((e) => e.event === "token").map((e) => e.data).join("")).toBe(REPLY);
    expect((await health(viaLlmUrl)).generator).toMatchObject({ active: "ollama:llama3.2", provider: "ollama", reachable: true });
    expect(ollama.requests.filter((r) => r.path === "/api/chat").every((r) => r.headers.authorization === `Bearer ${KEY}`)).toBe(true);
  });

  test("ingestion writes its pages through the OpenAI-compatible model", async () => {
    standin.setReply((body) => (String(body.messages[0].content).includes("Write clear markdown") ? "Rye flour makes a sour, dense loaf." : "[]"));
    const before = standin.requests.length;
    const { source } = await addText({ api: (p, i) => openai.call(p, i as any) }, openai.brainId, "Rye Bread", "Rye bread is baked with rye flour. It is sour and dense.");
    expect((await waitForSource({ api: (p, i) => openai.call(p, i as any) }, openai.brainId, source.id)).status).toBe("ready");
    expect(standin.requests.slice(before).some((r) => String(r.body?.messages?.[0]?.content).includes("Write clear markdown"))).toBe(true);
  });
});

describe("a failing server: the extractive answer, and health says so", () => {
  const FAILURES: [string, Failure | "rate-limited"][] = [
    ["401", { kind: "status", status: 401, message: `Incorrect API key provided: ${KEY}` }],
    ["403", { kind: "status", status: 403 }],
    ["500", { kind: "status", status: 500 }],
    ["503", { kind: "status", status: 503 }],
    ["429 beyond the bound", "rate-limited"],
    ["malformed JSON", { kind: "garbage" }],
    ["a stream cut mid-way", { kind: "cut" }],
    ["a hang", { kind: "hang" }],
  ];
  for (const [name, failure] of FAILURES) {
    test(name, async () => {
      standin.setReply(() => REPLY);
      try {
        if (failure === "rate-limited") standin.rateLimit(2, "3600");
        else standin.setFailure(failure);
        // A cut stream only exists when streaming.
        for (const stream of failure !== "rate-limited" && failure.kind === "cut" ? [true] : [false, true]) {
          const res = await ask(openai, stream);
          expect(res.status).toBe(200);
          const events = stream ? await readEvents(res) : [];
          const body = stream ? JSON.parse(events.at(-1)!.data) : await res.json();
          // Pieces already streamed are taken back before the extractive answer.
          if (stream && failure !== "rate-limited" && failure.kind === "cut") expect(events.some((e) => e.event === "reset")).toBe(true);
          expect(body.thin).toBe(false);
          expect(body.answerMd).toContain("equal weights of flour and water every day");
          expect(body.answerMd).not.toBe(REPLY);
        }
      } finally {
        standin.setFailure(null);
        standin.rateLimit(0, null);
      }
    });
  }

  test("an unknown model (404)", async () => {
    const wrongModel = await rig({ BRAINBOX_LLM_URL: standin.url, BRAINBOX_LLM_MODEL: "mistral", BRAINBOX_LLM_API_KEY: KEY });
    try {
      const body = await (await ask(wrongModel)).json();
      expect(body.answerMd).toContain("equal weights of flour and water every day");
      expect(wrongModel.logs.some((l) => l.includes("no model or deployment 'mistral'"))).toBe(true);
    } finally {
      await wrongModel.close();
    }
  });

  test("health: unreachable or refusing → extractive, with the reason", async () => {
    standin.setFailure({ kind: "status", status: 503 });
    try {
      expect((await health(openai)).generator).toMatchObject({ active: "extractive", provider: "openai", model: "qwen2.5", reachable: false });
      expect((await health(openai)).generator.error).toContain("HTTP 503");
    } finally {
      standin.setFailure(null);
    }
    const down = await health(refused);
    expect(down.generator).toMatchObject({ active: "extractive", reachable: false });
    expect(down.generator.error).toContain("is not reachable");
    const body = await (await ask(refused)).json();
    expect(body.answerMd).toContain("equal weights of flour and water every day");
  });
});

describe("the API key is write-only", () => {
  test("in no response body nor log line of any server, though the stand-in echoed it", async () => {
    for (const r of [openai, azure, viaLlmUrl, refused]) {
      await health(r);
      expect(r.seen.length).toBeGreaterThan(0);
      for (const text of [...r.seen, ...r.logs]) expect(text).not.toContain(KEY);
    }
    // The requests did carry it, so its absence above means something.
    expect(standin.requests.some((q) => q.headers.authorization === `Bearer ${KEY}`)).toBe(true);
    expect(openai.logs.some((l) => l.includes("generation failed"))).toBe(true);
  });
});
