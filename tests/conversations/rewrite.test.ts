// The follow-up rewrite: the extractive one on its own, the check of a model's reply, and over HTTP with a
// model (the Ollama stand-in on loopback) that rewrites well, answers garbage, fails or hangs: the last three
// fall back to the extractive rewrite, and the ask is answered either way.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { REWRITE_SYSTEM_PROMPT, usableRewrite } from "../../src/modules/conversations/model-rewrite";
import { extractiveRewrite, type PriorTurn } from "../../src/modules/conversations/rewrite";
import { startOllamaStandin, type OllamaStandin } from "../support/ollama-standin";
import { insertPages } from "../support/pages";
import { expectJson, startTestServer, type TestServer } from "../support/server";
import { newBrain } from "../support/sources";

const turn = (question: string, answerMd: string, standaloneQuestion = question): PriorTurn => ({ question, standaloneQuestion, answerMd });
const PLATFORM = [turn("Who leads the platform team?", "The platform team is led by Ada Okafor. [[platform-team]]")];

describe("the extractive rewrite", () => {
  test("a turn that refers back carries the history's names and topic", () => {
    const rewritten = extractiveRewrite("Where is she based?", PLATFORM);
    expect(rewritten).toStartWith("Where is she based? (");
    expect(rewritten).toMatch(/Ada|Okafor/);
    expect(rewritten).toContain("platform");
  });

  test("an elliptic turn (\"and in 2023?\") carries the topic; a first turn is left alone", () => {
    const history = [turn("How much revenue did the Lisbon office make in 2022?", "The Lisbon office made 4 million euros in 2022. [[lisbon-office]]")];
    expect(extractiveRewrite("and in 2023?", history)).toContain("Lisbon");
    expect(extractiveRewrite("and in 2023?", [])).toBe("and in 2023?");
  });

  test("a question that stands alone is searched as it is", () => {
    expect(extractiveRewrite("How many Kubernetes clusters does the deployment pipeline use in Zurich?", PLATFORM)).toBe(
      "How many Kubernetes clusters does the deployment pipeline use in Zurich?",
    );
  });

  test("an earlier turn's rewrite carries forward (a third turn still knows whom it is about)", () => {
    const history = [...PLATFORM, turn("Where is she based?", "Ada Okafor is based in Lisbon. [[ada-okafor]]", "Where is she based? (Ada Okafor platform team)")];
    expect(extractiveRewrite("When did she join?", history)).toMatch(/Ada|Okafor/);
  });
});

describe("checking a model's rewrite", () => {
  test("a label, quotes and further lines go; a plausible question is kept", () => {
    expect(usableRewrite('Standalone question: "Where is Ada Okafor based?"\nThis asks about…', "Where is she based?", PLATFORM)).toBe("Where is Ada Okafor based?");
  });

  test("garbage is refused: empty, an answer with citations, far too long, about nothing said", () => {
    expect(usableRewrite("   ", "Where is she based?", PLATFORM)).toBeNull();
    expect(usableRewrite("She is based in Lisbon [[ada-okafor]].", "Where is she based?", PLATFORM)).toBeNull();
    expect(usableRewrite(`Where is Ada Okafor based ${"and why ".repeat(80)}?`, "Where is she based?", PLATFORM)).toBeNull();
    expect(usableRewrite("Bananas are yellow!!!", "Where is she based?", PLATFORM)).toBeNull();
    expect(usableRewrite("?!?", "Where is she based?", PLATFORM)).toBeNull();
  });
});

type Mode = "rewrite" | "garbage" | "fail" | "hang";
let mode: Mode = "rewrite";
let ollama: OllamaStandin;
let s: TestServer;
let brainId: string;

const isRewrite = (req: any) => req.messages?.[0]?.content === REWRITE_SYSTEM_PROMPT;

beforeAll(async () => {
  ollama = startOllamaStandin({
    reply: async (req) => {
      if (isRewrite(req)) {
        if (mode === "garbage") return "Bananas are yellow!!!";
        if (mode === "fail") throw new Error("model crashed");
        if (mode === "hang") await Bun.sleep(15_000);
        return "Where is Ada Okafor based?";
      }
      // The grounded answer: the first page's first line, citing it.
      const page = /^\[\[([^\]]+)\]\][^\n]*\n+([^\n]+)/m.exec(req.messages.at(-1).content);
      return page ? `${page[2]} [[${page[1]}]]` : "NOT_IN_PAGES";
    },
  });
  s = await startTestServer({ BRAINBOX_OLLAMA_URL: ollama.url, BRAINBOX_REWRITE_TIMEOUT_MS: "4000" });
  brainId = await newBrain(s, "Company");
  await insertPages(s.ctx.db, brainId, [
    { title: "Platform Team", markdown: "The platform team is led by Ada Okafor. The platform team runs the deployment pipeline." },
    { title: "Ada Okafor", markdown: "Ada Okafor is based in Lisbon, Portugal." },
    { title: "Data Team", markdown: "The data team is led by Bruno Ritter. Bruno Ritter is based in Zurich." },
  ]);
});
afterAll(async () => {
  await s?.close();
  await ollama?.stop();
});

const ask = (json: unknown) => s.api(`/api/v1/brains/${brainId}/ask`, { method: "POST", json });
/** Starts a conversation, then asks "Where is she based?" in it with the model in `m`. */
async function followUp(m: Mode) {
  mode = "rewrite";
  const first = await expectJson(await ask({ question: "Who leads the platform team?" }), 200);
  mode = m;
  const before = ollama.requests.length;
  const body = await expectJson(await ask({ question: "Where is she based?", conversationId: first.conversationId }), 200);
  const chats = ollama.requests.slice(before).filter((r) => r.path === "/api/chat");
  return { body, rewriteAsked: chats.find((r) => isRewrite(r.body)), answerPrompt: chats.find((r) => !isRewrite(r.body))?.body.messages.at(-1).content as string };
}

describe("a model rewrites the follow-up", () => {
  test("its rewrite is searched and answered; the prompt shows the earlier turns", async () => {
    const { body, rewriteAsked, answerPrompt } = await followUp("rewrite");
    expect(body.standaloneQuestion).toBe("Where is Ada Okafor based?");
    expect(rewriteAsked!.body.messages[1].content).toContain("Q: Who leads the platform team?");
    expect(rewriteAsked!.body.messages[1].content).toContain("Last question: Where is she based?");
    expect(answerPrompt).toContain("Where is Ada Okafor based?");
    expect(body.thin).toBe(false);
  });

  test("the first turn never asks the model for a rewrite", async () => {
    mode = "rewrite";
    const before = ollama.requests.length;
    const body = await expectJson(await ask({ question: "Where is she based?" }), 200);
    expect(body.standaloneQuestion).toBe("Where is she based?");
    expect(ollama.requests.slice(before).some((r) => isRewrite(r.body))).toBe(false);
  });

  for (const m of ["garbage", "fail", "hang"] as const) {
    test(`a model that ${m === "hang" ? "hangs past the deadline" : m === "fail" ? "fails (HTTP 500)" : "answers garbage"}: the extractive rewrite is searched`, async () => {
      const { body, rewriteAsked, answerPrompt } = await followUp(m);
      expect(rewriteAsked).toBeDefined();
      // Exactly the extractive rewrite of the first turn as the conversation keeps it.
      const one = await expectJson(await s.api(`/api/v1/conversations/${body.conversationId}`), 200);
      expect(body.standaloneQuestion).toStartWith("Where is she based? (");
      expect(body.standaloneQuestion).toBe(extractiveRewrite("Where is she based?", [one.turns[0]]));
      expect(answerPrompt).toContain(body.standaloneQuestion);
      expect(one.turns[1].standaloneQuestion).toBe(body.standaloneQuestion);
    });
  }
});
