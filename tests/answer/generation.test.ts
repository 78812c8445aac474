// Answers written by a model (the Ollama stand-in on loopback), streaming, and failure while answering.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startOllamaStandin, type OllamaStandin } from "../support/ollama-standin";
import { expectJson, startTestServer, type TestServer } from "../support/server";
import { newBrain } from "../support/sources";
import { GeneratorUnavailableError } from "../../src/ai/generator";
import { insertPages } from "../support/pages";
import { readEvents } from "./sse-client";

let ollama: OllamaStandin;
let s: TestServer;
let brainId: string;
beforeAll(async () => {
  ollama = startOllamaStandin();
  s = await startTestServer({ BRAINBOX_OLLAMA_URL: ollama.url });
  brainId = await newBrain(s, "Kitchen");
  await insertPages(s.ctx.db, brainId, [
    { title: "Sourdough Starter", markdown: "A sourdough starter is fed with equal weights of flour and water every day. A healthy starter doubles within six hours." },
    { title: "Cast Iron Care", markdown: "Cast iron pans are seasoned with a thin layer of oil baked at 250 degrees. Never soak a cast iron pan in water." },
  ]);
});
afterAll(async () => {
  await s.close();
  await ollama.stop();
});

const ask = (path: string, question: string, headers: Record<string, string> = {}) => s.api(path, { method: "POST", json: { question }, headers });
const QUESTION = "How often is a sourdough starter fed with flour and water?";

describe("generated answers", () => {
  test("the model gets a grounding prompt with the pages; its citations are kept, unknown ones removed", async () => {
    ollama.setReply(() => "Feed it every day with equal flour and water [[sourdough-starter]] [[made-up-page]].");
    const body = await expectJson(await ask(`/api/brains/${brainId}/ask`, QUESTION), 200);
    expect(body.thin).toBe(false);
    expect(body.answerMd).toBe("Feed it every day with equal flour and water [[sourdough-starter]].");
    expect(body.citations.map((c: any) => c.slug)).toEqual(["sourdough-starter"]);
    const chat = ollama.requests.filter((r) => r.path === "/api/chat").at(-1)!.body;
    expect(chat.messages[0].content).toMatch(/ONLY the wiki pages/);
    expect(chat.messages[1].content).toContain("[[sourdough-starter]] Sourdough Starter");
    expect(chat.messages[1].content).toContain(QUESTION);
  });

  test("the model's refusal makes the answer thin", async () => {
    ollama.setReply(() => "NOT_IN_PAGES");
    const body = await expectJson(await ask(`/api/v1/brains/${brainId}/ask`, QUESTION), 200);
    expect(body).toMatchObject({ thin: true, citations: [] });
    expect(body.answer).toMatch(/don't know/i);
  });

  test("weak evidence is thin without asking the model at all", async () => {
    const before = ollama.requests.length;
    const body = await expectJson(await ask(`/api/v1/brains/${brainId}/ask`, "Who painted the Mona Lisa?"), 200);
    expect(body.thin).toBe(true);
    expect(ollama.requests.length).toBe(before);
  });

  test("an on-topic question the extractive bar would drop reaches the model; with the model down it is thin", async () => {
    // The page covers part of the question (cast iron) but not who: too little for the extractive
    // answerer, enough to let a model read it (it may refuse).
    const question = "Which chef in Lyon first recommended cast iron cookware?";
    ollama.setReply(() => "The pages say how pans are seasoned, with oil baked at 250 degrees [[cast-iron-care]].");
    const before = ollama.requests.length;
    const answered = await expectJson(await ask(`/api/v1/brains/${brainId}/ask`, question), 200);
    expect(ollama.requests.length).toBe(before + 1);
    expect(answered).toMatchObject({ thin: false });
    expect(answered.citations.map((c: any) => c.slug)).toEqual(["cast-iron-care"]);

    ollama.setFail(503);
    try {
      const fallback = await expectJson(await ask(`/api/brains/${brainId}/ask`, question), 200);
      expect(fallback).toMatchObject({ thin: true, citations: [] });
    } finally {
      ollama.setFail(null);
    }
  });

  test("Ollama down: the extractive answer, complete and cited", async () => {
    ollama.setFail(503);
    try {
      const body = await expectJson(await ask(`/api/brains/${brainId}/ask`, QUESTION), 200);
      expect(body.thin).toBe(false);
      expect(body.answerMd).toContain("equal weights of flour and water every day. [[sourdough-starter]]");
    } finally {
      ollama.setFail(null);
    }
  });

  test("a page deleted while the model writes: its citation goes, and with none left the answer is thin", async () => {
    const other = await newBrain(s);
    await insertPages(s.ctx.db, other, [{ title: "Bread Oven", markdown: "A bread oven is heated to 250 degrees before the loaves go in." }]);
    ollama.setReply(async () => {
      await s.ctx.database.client.execute({ sql: "DELETE FROM pages WHERE brain_id = ? AND slug = 'bread-oven'", args: [other] });
      return "Heat it to 250 degrees [[bread-oven]].";
    });
    const body = await expectJson(await ask(`/api/v1/brains/${other}/ask`, "How hot is a bread oven heated before the loaves go in?"), 200);
    expect(body).toMatchObject({ thin: true, citations: [] });
    expect(body.answer).not.toContain("bread-oven");
  });
});

describe("streaming (Accept: text/event-stream)", () => {
  test("tokens as they come, then `done` with the same JSON as without streaming", async () => {
    ollama.setReply(() => "A starter is fed every day [[sourdough-starter]]. It doubles within six hours [[sourdough-starter]].");
    const res = await ask(`/api/v1/brains/${brainId}/ask`, QUESTION, { accept: "text/event-stream" });
    expect(res.headers.get("content-type")).toStartWith("text/event-stream");
    const events = await readEvents(res);
    const tokens = events.filter((e) => e.event === "token");
    expect(tokens.length).toBeGreaterThan(3);
    expect(tokens.map((t) => t.data).join("")).toBe("A starter is fed every day [[sourdough-starter]]. It doubles within six hours [[sourdough-starter]].");
    const done = events.at(-1)!;
    expect(done.event).toBe("done");
    const body = JSON.parse(done.data);
    expect(Object.keys(body).sort()).toEqual(["answer", "bank", "citations", "conversationId", "id", "quota", "standaloneQuestion", "thin"]);
    expect(body.answer).toContain(`[Sourdough Starter](${s.url}/api/v1/brains/${brainId}/pages/sourdough-starter)`);
  });

  test("unversioned stream ends with its own shape", async () => {
    ollama.setReply(() => "Every day [[sourdough-starter]].");
    const events = await readEvents(await ask(`/api/brains/${brainId}/ask`, QUESTION, { accept: "text/event-stream" }));
    const body = JSON.parse(events.at(-1)!.data);
    expect(body).toMatchObject({ answerMd: "Every day [[sourdough-starter]].", thin: false });
    expect(body.answerHtml).toContain("<a href=");
  });

  test("the refusal marker is never streamed", async () => {
    ollama.setReply(() => "NOT_IN_PAGES");
    const events = await readEvents(await ask(`/api/brains/${brainId}/ask`, QUESTION, { accept: "text/event-stream" }));
    const text = events.filter((e) => e.event === "token").map((e) => e.data).join("");
    expect(text).not.toContain("NOT_IN");
    expect(text).toMatch(/don't know/);
    expect(JSON.parse(events.at(-1)!.data).thin).toBe(true);
  });

  test("the model failing mid-answer: `reset`, then the extractive answer; `done` is complete", async () => {
    const real = s.ctx.ai.generator!;
    s.ctx.ai.generator = {
      name: real.name,
      ping: real.ping,
      async chat(_messages, opts) {
        opts?.onToken?.("Half an ");
        opts?.onToken?.("answer");
        throw new GeneratorUnavailableError("connection reset mid-stream");
      },
    };
    try {
      const events = await readEvents(await ask(`/api/v1/brains/${brainId}/ask`, QUESTION, { accept: "text/event-stream" }));
      const kinds = events.map((e) => e.event);
      expect(kinds.indexOf("reset")).toBeGreaterThan(kinds.indexOf("token"));
      const after = events.slice(kinds.indexOf("reset") + 1).filter((e) => e.event === "token").map((e) => e.data).join("");
      expect(after).toContain("every day. [[sourdough-starter]]");
      const body = JSON.parse(events.at(-1)!.data);
      expect(body.thin).toBe(false);
      expect(body.answer).not.toContain("Half an");
      expect(body.answer).toContain("every day.");
    } finally {
      s.ctx.ai.generator = real;
    }
  });

  test("errors before the answer starts are plain HTTP errors", async () => {
    const res = await ask(`/api/v1/brains/brn_nope/ask`, QUESTION, { accept: "text/event-stream" });
    expect(res.status).toBe(404);
    expect((await res.json()).error.code).toBe("not_found");
  });
});
