// Conversations over real HTTP, without a model (the extractive rewrite): every ask surface continues one
// (v1, brain set, unversioned, SSE, MCP through the SDK client), the routes list, show and delete them, and
// the bad inputs: another person's or another brain's id, a deleted one, a follow-up as the first turn,
// 1,000 turns, a paid ask with a conversationId.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { createAccount } from "../../src/modules/accounts/service";
import { createApiKey } from "../../src/modules/auth/keys";
import { newId } from "../../src/lib/secrets";
import { connectMcp, textOf, type McpSession } from "../mcp/support";
import { readEvents } from "../answer/sse-client";
import { insertPages } from "../support/pages";
import { expectJson, startTestServer, type TestServer } from "../support/server";
import { newBrain } from "../support/sources";

const TEAMS = [
  { title: "Platform Team", markdown: "The platform team is led by Ada Okafor. The platform team runs the deployment pipeline and the Kubernetes clusters." },
  { title: "Ada Okafor", markdown: "Ada Okafor is based in Lisbon, Portugal. Ada Okafor joined the company in 2019 as a site reliability engineer." },
  { title: "Data Team", markdown: "The data team is led by Bruno Ritter. Bruno Ritter is based in Zurich and the data team maintains the warehouse." },
  { title: "Office Plants", markdown: "The office plants are watered every Tuesday by the facilities crew." },
];

let s: TestServer;
let brainId: string;
let otherBrainId: string;
let stranger: { id: string; key: string };
let mcp: McpSession;

beforeAll(async () => {
  // A facilitator address (never reached: a paid ask with a conversationId is refused before any payment).
  s = await startTestServer({ BRAINBOX_CONVERSATION_TURNS: "3", BRAINBOX_AUTH_FAILURES_PER_MINUTE: "1000", BRAINBOX_X402_FACILITATOR_URL: "http://127.0.0.1:9" });
  brainId = await newBrain(s, "Company");
  otherBrainId = await newBrain(s, "Other");
  await insertPages(s.ctx.db, brainId, TEAMS);
  await insertPages(s.ctx.db, otherBrainId, [TEAMS[0]!]);
  const account = await createAccount(s.ctx.db, { name: "Stranger", planId: "team" });
  stranger = { id: account.id, key: (await createApiKey(s.ctx.db, account.id, "test")).key };
  // The stranger may read and ask the brain: only the conversation is not theirs.
  await expectJson(await s.api(`/api/v1/brains/${brainId}/shares/accounts/${account.id}`, { method: "PUT", json: { role: "viewer" } }), 200);
  mcp = await connectMcp(s.url, s.key);
});
afterAll(async () => {
  await mcp?.close();
  await s?.close();
});

const post = (path: string, json: unknown, key?: string) => s.api(path, { method: "POST", json, key });
const askV1 = (json: unknown, key?: string, brain = brainId) => post(`/api/v1/brains/${brain}/ask`, json, key);

describe("a conversation on the v1 ask", () => {
  test("the first answer names a new conversation; the follow-up is rewritten from it and finds what the turn alone cannot", async () => {
    const first = await expectJson(await askV1({ question: "Who leads the platform team?" }), 200);
    expect(first.conversationId).toMatch(/^conv_/);
    expect(first.standaloneQuestion).toBe("Who leads the platform team?");
    expect(first.answer).toContain("Ada Okafor");
    const followUp = await expectJson(await askV1({ question: "Where is she based?", conversationId: first.conversationId }), 200);
    expect(followUp.conversationId).toBe(first.conversationId);
    expect(followUp.standaloneQuestion).toStartWith("Where is she based?");
    expect(followUp.standaloneQuestion).toMatch(/Ada|Okafor/);
    expect(followUp.thin).toBe(false);
    expect(followUp.answer).toContain("Lisbon");
    expect(followUp.citations.map((c: any) => c.slug)).toContain("ada-okafor");
    // The same words alone, in a new conversation, are searched as they are.
    const alone = await expectJson(await askV1({ question: "Where is she based?" }), 200);
    expect(alone.standaloneQuestion).toBe("Where is she based?");
    expect(alone.conversationId).not.toBe(first.conversationId);
    // Alone, "she" could be anyone based anywhere; the rewrite named her, so only her city is given.
    expect(alone.answer).toContain("Zurich");
    expect(followUp.answer).not.toContain("Zurich");
  });

  test("the answer keeps the seed's fields, adding only conversationId and standaloneQuestion", async () => {
    const body = await expectJson(await askV1({ question: "Who leads the data team?" }), 200);
    expect(Object.keys(body).sort()).toEqual(["answer", "bank", "citations", "conversationId", "id", "quota", "standaloneQuestion", "thin"]);
  });

  test("each turn is one question of the quota; a wrong conversation id spends nothing", async () => {
    const first = await expectJson(await askV1({ question: "Who leads the data team?" }), 200);
    const second = await expectJson(await askV1({ question: "Where is he based?", conversationId: first.conversationId }), 200);
    expect(second.quota.remaining).toBe(first.quota.remaining - 1);
    await expectJson(await askV1({ question: "And then?", conversationId: "conv_nope" }), 404);
    const third = await expectJson(await askV1({ question: "Who leads the data team?" }), 200);
    expect(third.quota.remaining).toBe(second.quota.remaining - 1);
  });

  test("a follow-up as the first turn is searched as it is", async () => {
    const body = await expectJson(await askV1({ question: "And what about her?" }), 200);
    expect(body.standaloneQuestion).toBe("And what about her?");
  });

  test("streamed (SSE): the done event carries the conversation", async () => {
    const first = await expectJson(await askV1({ question: "Who leads the platform team?" }), 200);
    const res = await s.api(`/api/v1/brains/${brainId}/ask`, { method: "POST", json: { question: "Where is she based?", conversationId: first.conversationId }, headers: { accept: "text/event-stream" } });
    const done = JSON.parse((await readEvents(res)).find((e) => e.event === "done")!.data);
    expect(done.conversationId).toBe(first.conversationId);
    expect(done.answer).toContain("Lisbon");
    const wrong = await s.api(`/api/v1/brains/${brainId}/ask`, { method: "POST", json: { question: "Where?", conversationId: "conv_missing" }, headers: { accept: "text/event-stream" } });
    expect(wrong.status).toBe(404);
  });
});

describe("ownership and bad ids", () => {
  test("another person's conversation is 404 to ask in, read or delete; another brain's id is 404", async () => {
    const mine = await expectJson(await askV1({ question: "Who leads the platform team?" }), 200);
    const id = mine.conversationId;
    expect((await expectJson(await askV1({ question: "Where is she based?", conversationId: id }, stranger.key), 404)).error.code).toBe("not_found");
    await expectJson(await s.api(`/api/v1/conversations/${id}`, { key: stranger.key }), 404);
    await expectJson(await s.api(`/api/v1/conversations/${id}`, { method: "DELETE", key: stranger.key }), 404);
    const theirs = await expectJson(await s.api("/api/v1/conversations", { key: stranger.key }), 200);
    expect(theirs.conversations.map((c: any) => c.id)).not.toContain(id);
    await expectJson(await askV1({ question: "Where is she based?", conversationId: id }, undefined, otherBrainId), 404);
    await expectJson(await post(`/api/brains/${otherBrainId}/ask`, { question: "Where?", conversationId: id }), 404);
    // Still the owner's, untouched.
    await expectJson(await askV1({ question: "Where is she based?", conversationId: id }), 200);
  });

  test("someone whose share was removed no longer reads their conversation of that brain (404)", async () => {
    const other = await createAccount(s.ctx.db, { name: "Former viewer", planId: "team" });
    const key = (await createApiKey(s.ctx.db, other.id, "test")).key;
    await expectJson(await s.api(`/api/v1/brains/${brainId}/shares/accounts/${other.id}`, { method: "PUT", json: { role: "viewer" } }), 200);
    const { conversationId } = await expectJson(await askV1({ question: "Who leads the platform team?" }, key), 200);
    await expectJson(await s.api(`/api/v1/conversations/${conversationId}`, { key }), 200);
    expect((await s.api(`/api/v1/brains/${brainId}/shares/accounts/${other.id}`, { method: "DELETE" })).status).toBe(204);
    await expectJson(await s.api(`/api/v1/conversations/${conversationId}`, { key }), 404);
    await expectJson(await askV1({ question: "Where is she based?", conversationId }, key), 404);
  });

  test("two follow-ups at once both become turns, numbered apart", async () => {
    const { conversationId } = await expectJson(await askV1({ question: "Who leads the platform team?" }), 200);
    const both = await Promise.all(["Where is she based?", "When did she join?"].map((question) => askV1({ question, conversationId })));
    for (const res of both) await expectJson(res, 200);
    const one = await expectJson(await s.api(`/api/v1/conversations/${conversationId}`), 200);
    expect(one.conversation.turns).toBe(3);
    expect(one.turns.map((t: any) => t.question).slice(1).sort()).toEqual(["When did she join?", "Where is she based?"]);
  });

  test("a deleted conversation is gone: 404 to read, ask in or delete again", async () => {
    const { conversationId } = await expectJson(await askV1({ question: "Who leads the data team?" }), 200);
    expect(await expectJson(await s.api(`/api/v1/conversations/${conversationId}`, { method: "DELETE" }), 200)).toEqual({ deleted: true });
    await expectJson(await s.api(`/api/v1/conversations/${conversationId}`), 404);
    await expectJson(await askV1({ question: "Where is he based?", conversationId }), 404);
    await expectJson(await s.api(`/api/v1/conversations/${conversationId}`, { method: "DELETE" }), 404);
  });

  test("a conversationId that is not a string is 422; any string that names nothing is 404", async () => {
    await expectJson(await askV1({ question: "Who?", conversationId: 42 }), 422);
    await expectJson(await askV1({ question: "Who?", conversationId: "" }), 404);
    await expectJson(await askV1({ question: "Who?", conversationId: "x".repeat(5000) }), 404);
    await expectJson(await s.api("/api/v1/conversations?limit=0"), 422);
    await expectJson(await s.api("/api/v1/conversations?cursor=%%%"), 422);
    await expectJson(await s.api("/api/v1/conversations", { key: null }), 401);
  });

  test("a paid ask refuses a conversationId before asking for payment (a payer owns no conversation), on HTTP and MCP", async () => {
    const paid = await newBrain(s, "Paid");
    await insertPages(s.ctx.db, paid, [TEAMS[0]!]);
    await expectJson(await s.api(`/api/v1/brains/${paid}/paid`, { method: "PUT", json: { priceAtomic: "10000", payTo: `0x${"ab".repeat(20)}`, visibility: "public" } }), 200);
    const body = await expectJson(await post(`/api/x402/${paid}/ask`, { question: "Who leads the platform team?", conversationId: "conv_x" }, null as never), 422);
    expect(body.error).toMatchObject({ code: "invalid_request", field: "conversationId" });
    // Without it, the paid rail asks for payment as always.
    expect((await post(`/api/x402/${paid}/ask`, { question: "Who leads the platform team?" }, null as never)).status).toBe(402);
    const keyless = await connectMcp(s.url, null, "/mcp/x402");
    try {
      const refused = await keyless.call("ask_brain", { brainId: paid, question: "Who leads the platform team?", conversationId: "conv_x" });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(/conversation/i);
    } finally {
      await keyless.close();
    }
  });
});

describe("the conversation routes", () => {
  test("list: the caller's, the last continued first, cursor paged; one: its turns with the standalone questions", async () => {
    const a = await expectJson(await askV1({ question: "Who leads the platform team?" }), 200);
    const b = await expectJson(await askV1({ question: "Who leads the data team?" }), 200);
    await expectJson(await askV1({ question: "Where is she based?", conversationId: a.conversationId }), 200);
    const page1 = await expectJson(await s.api("/api/v1/conversations?limit=1"), 200);
    expect(page1.conversations[0]).toMatchObject({ id: a.conversationId, title: "Who leads the platform team?", brainId, setId: null, turns: 2 });
    const page2 = await expectJson(await s.api(`/api/v1/conversations?limit=1&cursor=${page1.nextCursor}`), 200);
    expect(page2.conversations[0].id).toBe(b.conversationId);
    const one = await expectJson(await s.api(`/api/v1/conversations/${a.conversationId}`), 200);
    expect(one.conversation.id).toBe(a.conversationId);
    expect(one.turns.map((t: any) => t.question)).toEqual(["Who leads the platform team?", "Where is she based?"]);
    expect(one.turns[1].standaloneQuestion).toMatch(/Ada|Okafor/);
    expect(one.turns[1].askId).toMatch(/^ask_/);
    expect(one.turns[1].citations[0].url).toContain(`/brains/${brainId}/`);
  });

  test("1,000 turns: only the last N are read for the rewrite; the list and the conversation still answer", async () => {
    const { conversationId } = await expectJson(await askV1({ question: "Who leads the data team?" }), 200);
    // 998 old turns about the data team, then the last 3 (N) about the platform team.
    const rows = Array.from({ length: 1000 }, (_, i) => {
      const recent = i >= 997;
      const question = recent ? "Who leads the platform team?" : "Who maintains the warehouse for Bruno Ritter?";
      const answer = recent ? "The platform team is led by Ada Okafor." : "Bruno Ritter and the warehouse in Zurich.";
      return sql`INSERT INTO conversation_turns (id, conversation_id, seq, ask_id, question, standalone_question, answer_md, citations, thin, created_at)
        VALUES (${newId("turn")}, ${conversationId}, ${i + 2}, ${newId("ask")}, ${question}, ${question}, ${answer}, '[]', 0, ${Date.now()})`;
    });
    for (let i = 0; i < rows.length; i += 250) await s.ctx.db.batch(rows.slice(i, i + 250).map((q) => s.ctx.db.run(q)) as never);
    await s.ctx.db.run(sql`UPDATE conversations SET turn_count = 1001 WHERE id = ${conversationId}`);
    const next = await expectJson(await askV1({ question: "Where is she based?", conversationId }), 200);
    expect(next.standaloneQuestion).toMatch(/Ada|Okafor/);
    expect(next.standaloneQuestion).not.toMatch(/Ritter|warehouse|Zurich/);
    const list = await expectJson(await s.api("/api/v1/conversations?limit=1"), 200);
    expect(list.conversations[0]).toMatchObject({ id: conversationId, turns: 1002 });
    const one = await expectJson(await s.api(`/api/v1/conversations/${conversationId}`), 200);
    expect(one.turns.length).toBe(1002);
    expect(one.turns.at(-1).question).toBe("Where is she based?");
  });
});

describe("the other surfaces", () => {
  test("unversioned ask: the optional field continues the conversation; the seed's fields stay", async () => {
    const first = await expectJson(await post(`/api/brains/${brainId}/ask`, { question: "Who leads the platform team?" }), 200);
    expect(Object.keys(first).sort()).toEqual(["answerHtml", "answerMd", "citations", "conversationId", "retrievedSlugs", "standaloneQuestion", "thin"]);
    const next = await expectJson(await post(`/api/brains/${brainId}/ask`, { question: "Where is she based?", conversationId: first.conversationId }), 200);
    expect(next.answerMd).toContain("Lisbon");
    expect(next.citations.map((c: any) => c.slug)).toContain("ada-okafor");
  });

  test("brain-set ask: a set's conversation is the set's (404 on the brain itself)", async () => {
    const set = (await expectJson(await post("/api/v1/brain-sets", { name: "Company set", primaryBrainId: brainId, advisorBrainIds: [otherBrainId] }), 201)).brainSet.id;
    const first = await expectJson(await post(`/api/v1/brain-sets/${set}/ask`, { question: "Who leads the platform team?" }), 200);
    expect(first.conversationId).toMatch(/^conv_/);
    const next = await expectJson(await post(`/api/v1/brain-sets/${set}/ask`, { question: "Where is she based?", conversationId: first.conversationId }), 200);
    expect(next.standaloneQuestion).toMatch(/Ada|Okafor/);
    expect(next.answer).toContain("Lisbon");
    await expectJson(await askV1({ question: "Where is she based?", conversationId: first.conversationId }), 404);
    const one = await expectJson(await s.api(`/api/v1/conversations/${first.conversationId}`), 200);
    expect(one.conversation.setId).toBe(set);
  });

  test("MCP ask_brain through the SDK client: returns the conversation and continues it", async () => {
    const first = await mcp.call("ask_brain", { brainId, question: "Who leads the platform team?" });
    expect(first.isError).toBeFalsy();
    const conversationId = first.structuredContent.conversationId;
    expect(conversationId).toMatch(/^conv_/);
    expect(textOf(first)).toContain(conversationId);
    const next = await mcp.call("ask_brain", { brainId, question: "Where is she based?", conversationId });
    expect(next.structuredContent.conversationId).toBe(conversationId);
    expect(next.structuredContent.standaloneQuestion).toMatch(/Ada|Okafor/);
    expect(next.structuredContent.answer).toContain("Lisbon");
    const wrong = await mcp.call("ask_brain", { brainId, question: "Where?", conversationId: "conv_missing" });
    expect(wrong.isError).toBe(true);
    expect(textOf(wrong)).toMatch(/not found/i);
  });
});
