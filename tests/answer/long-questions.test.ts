// A question of any length within the 4,000-character limit works (issue 54 item 6): ~600 distinct words
// made the per-term ranking one UNION ALL per term, past SQLite's 500 and a 500 on ask, context and MCP.
// The terms matched are a bounded list of the question's most informative ones: the rare name at the end of
// a long question still finds its page.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { englishFrequency } from "../../src/lib/english-frequency";
import { ENGLISH_STOPWORDS } from "../../src/lib/function-words";
import { expectJson, startTestServer, type TestServer } from "../support/server";
import { newBrain, waitForSource } from "../support/sources";
import { connectMcp, textOf, type McpSession } from "../mcp/support";

let s: TestServer;
let mcp: McpSession;
let brainId: string;

/** ~600 distinct common English words, then the page's rare name, 4,000 characters at most. */
function longQuestion(): { question: string; distinct: number } {
  const common = [...englishFrequency().counts]
    .filter(([w]) => /^[a-z]{3,6}$/.test(w) && !ENGLISH_STOPWORDS.has(w))
    .sort((a, b) => b[1] - a[1])
    .map(([w]) => w);
  const tail = " where is the Quillonmere lighthouse keeper?";
  const words: string[] = [];
  while (`${words.join(" ")} ${common[words.length]}`.length + tail.length <= 4000) words.push(common[words.length]!);
  return { question: words.join(" ") + tail, distinct: words.length + 4 };
}

beforeAll(async () => {
  s = await startTestServer({ BRAINBOX_AUTH_FAILURES_PER_MINUTE: "1000" });
  brainId = await newBrain(s, "Coast");
  for (const [title, content] of [
    ["Quillonmere Lighthouse", "The Quillonmere lighthouse keeper is Agnes Tarrow, who has kept the light since 1994."],
    ["Harbour Dues", "Boats moored in the harbour pay dues to the harbour office every month."],
  ]) {
    const { source } = await expectJson(await s.api(`/api/v1/brains/${brainId}/sources`, { method: "POST", json: { title, content } }), 201);
    expect((await waitForSource(s, brainId, source.id)).status).toBe("ready");
  }
  mcp = await connectMcp(s.url, s.key);
});
afterAll(async () => {
  await mcp?.close();
  await s?.close();
});

describe("a 4,000-character question of ~600 distinct words", () => {
  const { question, distinct } = longQuestion();

  test("the question is what the issue describes", () => {
    expect(question.length).toBeLessThanOrEqual(4000);
    expect(question.length).toBeGreaterThan(3900);
    expect(distinct).toBeGreaterThanOrEqual(550);
  });

  test("ask on both surfaces answers, having retrieved the rare name's page", async () => {
    // Whether ~600 unrelated words are answered is the answerer's call; the question is no error.
    const v1 = await expectJson(await s.api(`/api/v1/brains/${brainId}/ask`, { method: "POST", json: { question } }), 200);
    expect(typeof v1.answer).toBe("string");
    const plain = await expectJson(await s.api(`/api/brains/${brainId}/ask`, { method: "POST", json: { question } }), 200);
    expect(plain.retrievedSlugs).toContain("quillonmere-lighthouse");
  });

  test("context on both surfaces ranks the rare name's page first", async () => {
    for (const base of ["/api/v1/brains", "/api/brains"]) {
      const body = await expectJson(await s.api(`${base}/${brainId}/context`, { method: "POST", json: { query: question } }), 200);
      expect(body.pages[0].slug).toBe("quillonmere-lighthouse");
    }
  });

  test("MCP search, get_context and ask_brain", async () => {
    const search = await mcp.call("search", { query: question });
    expect(search.isError).toBeFalsy();
    expect(JSON.parse(textOf(search)).results[0].id).toBe(`${brainId}/quillonmere-lighthouse`);
    const context = await mcp.call("get_context", { brainId, query: question });
    expect(context.isError).toBeFalsy();
    expect(textOf(context)).toContain("Agnes Tarrow");
    const ask = await mcp.call("ask_brain", { brainId, question });
    expect(ask.isError).toBeFalsy();
    // One character more is a length error that says so.
    const tooLong = await mcp.call("search", { query: `${question}x`.padEnd(4001, "x") });
    expect(tooLong.isError).toBe(true);
    expect(textOf(tooLong)).toContain("at most 4000 characters");
  });
});
