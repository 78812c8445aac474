import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { newAccountKey } from "../support/accounts";
import { expectJson, startTestServer, type TestServer } from "../support/server";
import { addText, newBrain, waitForSource } from "../support/sources";

let s: TestServer;
let brainId: string;
let sourceIds: Record<string, string>;
beforeAll(async () => {
  s = await startTestServer();
  brainId = await newBrain(s, "Home Energy");
  sourceIds = {};
  for (const [title, content] of Object.entries(ENERGY)) {
    const { source } = await addText(s, brainId, title, content);
    sourceIds[title] = source.id;
  }
  for (const id of Object.values(sourceIds)) await waitForSource(s, brainId, id);
});
afterAll(() => s.close());

export const ENERGY: Record<string, string> = {
  "Solar Panels":
    "Solar panels convert sunlight into electricity using photovoltaic cells. A typical residential solar panel produces about 350 watts of power. Most solar panels keep working for 25 to 30 years.",
  "Heat Pumps":
    "A heat pump moves heat from the outside air into a house. Heat pumps are about three times more efficient than electric resistance heaters. The heat pump was invented by Peter von Rittinger in 1856.",
  "Wind Turbines":
    "Wind turbines turn the kinetic energy of wind into electricity. The blades of a large turbine can be 80 metres long. Offshore wind farms produce more energy because the wind at sea is stronger.",
};

const post = (path: string, json: unknown, init: { key?: string; headers?: Record<string, string> } = {}) =>
  s.api(path, { method: "POST", json, ...init });

describe("ask", () => {
  test("v1: absolute-link citations, id, quota and bank, and the ask is saved", async () => {
    const body = await expectJson(await post(`/api/v1/brains/${brainId}/ask`, { question: "How much power does a residential solar panel produce?" }), 200);
    expect(Object.keys(body).sort()).toEqual(["answer", "bank", "citations", "conversationId", "id", "quota", "standaloneQuestion", "thin"]);
    expect(body.thin).toBe(false);
    expect(body.answer).toContain("350 watts");
    const url = `${s.url}/api/v1/brains/${brainId}/pages/solar-panels`;
    expect(body.citations).toContainEqual({ slug: "solar-panels", title: "Solar Panels", url });
    expect(body.answer).toContain(`[Solar Panels](${url})`);
    expect(body.answer).not.toContain("[[");
    // The owner is on the team plan: a quota object, and `bank` is what that plan still allows (the quota left).
    expect(body.quota).toMatchObject({ limit: 10000, used: 1, remaining: 9999, period: "month" });
    expect(body.bank).toBe(9999);
    expect(body.id).toStartWith("ask_");
    const saved = await s.ctx.database.client.execute({ sql: "SELECT brain_id, surface, question, thin, account_id FROM asks WHERE id = ?", args: [body.id] });
    expect(saved.rows[0]).toMatchObject({ brain_id: brainId, surface: "v1", thin: 0 });
    expect(saved.rows[0]!.account_id).toBeString();
  });

  test("unversioned: answerMd keeps [[slug]], answerHtml links, documentId is the source", async () => {
    const body = await expectJson(await post(`/api/brains/${brainId}/ask`, { question: "Who invented the heat pump?" }), 200);
    expect(Object.keys(body).sort()).toEqual(["answerHtml", "answerMd", "citations", "conversationId", "retrievedSlugs", "standaloneQuestion", "thin"]);
    expect(body.thin).toBe(false);
    expect(body.answerMd).toContain("Rittinger");
    expect(body.answerMd).toContain("[[heat-pumps]]");
    expect(body.citations).toContainEqual({ slug: "heat-pumps", title: "Heat Pumps", documentId: sourceIds["Heat Pumps"] });
    expect(body.retrievedSlugs[0]).toBe("heat-pumps");
    expect(body.answerHtml).toContain(`<a href="${s.url}/api/v1/brains/${brainId}/pages/heat-pumps"`);
    expect(body.answerHtml).not.toContain("[[");
  });

  test("a question the brain cannot answer is thin: no citations, says so plainly", async () => {
    for (const question of ["What is the boiling point of mercury?", "Who won the 1998 football world cup final?"]) {
      const v1 = await expectJson(await post(`/api/v1/brains/${brainId}/ask`, { question }), 200);
      expect(v1.thin).toBe(true);
      expect(v1.citations).toEqual([]);
      expect(v1.answer).toMatch(/don't know/i);
      const plain = await expectJson(await post(`/api/brains/${brainId}/ask`, { question }), 200);
      expect(plain).toMatchObject({ thin: true, citations: [] });
    }
  });

  test("a brain without ready pages answers thin, not an error", async () => {
    const empty = await newBrain(s);
    await addText(s, empty, "Pending", "Not processed yet."); // may or may not be ready: either way no answer
    const body = await expectJson(await post(`/api/v1/brains/${empty}/ask`, { question: "What is photosynthesis?" }), 200);
    expect(body).toMatchObject({ thin: true, citations: [] });
  });

  test("bad questions: empty and whitespace 422, 100 KB 422, another script does not crash", async () => {
    for (const question of ["", "   \n\t "]) {
      const body = await expectJson(await post(`/api/v1/brains/${brainId}/ask`, { question }), 422);
      expect(body.error).toMatchObject({ code: "invalid_request", field: "question" });
    }
    const long = await expectJson(await post(`/api/brains/${brainId}/ask`, { question: "solar ".repeat(17_000) }), 422);
    expect(long.error.field).toBe("question");
    await expectJson(await post(`/api/v1/brains/${brainId}/ask`, {}), 422);
    for (const question of ["太阳能电池板能发多少电？", "Что такое тепловой насос?", "🔥🔥🔥", "\"*\" OR NEAR(a b)"]) {
      const body = await expectJson(await post(`/api/v1/brains/${brainId}/ask`, { question }), 200);
      expect(typeof body.thin).toBe("boolean");
    }
  });

  test("another account's private brain is 404; a public one can be asked", async () => {
    const other = await newAccountKey(s.ctx.db);
    const hidden = await expectJson(await post(`/api/v1/brains/${brainId}/ask`, { question: "Who invented the heat pump?" }, { key: other }), 404);
    expect(hidden.error.code).toBe("not_found");
    await expectJson(await post(`/api/brains/${brainId}/context`, { query: "heat pump" }, { key: other }), 404);
    await expectJson(await s.api(`/api/v1/brains/${brainId}`, { method: "PATCH", json: { visibility: "public" } }), 200);
    const open = await expectJson(await post(`/api/v1/brains/${brainId}/ask`, { question: "Who invented the heat pump?" }, { key: other }), 200);
    expect(open.thin).toBe(false);
    await expectJson(await s.api(`/api/v1/brains/${brainId}`, { method: "PATCH", json: { visibility: "private" } }), 200);
    await expectJson(await post(`/api/v1/brains/${brainId}/ask`, { question: "x" }, { key: null as unknown as string }), 401);
  });
});

describe("context", () => {
  test("unversioned: full markdown of the retrieved pages", async () => {
    const body = await expectJson(await post(`/api/brains/${brainId}/context`, { query: "how long are wind turbine blades" }), 200);
    expect(Object.keys(body).sort()).toEqual(["contextText", "pages", "thin"]);
    expect(body.pages[0]).toEqual({ slug: "wind-turbines", title: "Wind Turbines", score: 1 });
    expect(body.contextText).toContain("The blades of a large turbine can be 80 metres long.");
    expect(body.thin).toBe(false);
  });

  test("each page is headed by its title once: a page opening with its own '# Title' does not repeat it", async () => {
    const { source } = await addText(s, brainId, "Tidal Barrages", "# Tidal Barrages\n\nA tidal barrage holds the rising tide behind sluice gates and releases it through turbines.");
    await waitForSource(s, brainId, source.id);
    const body = await expectJson(await post(`/api/brains/${brainId}/context`, { query: "tidal barrage sluice gates", limit: 1 }), 200);
    expect(body.contextText.startsWith("# Tidal Barrages\n\nPage: [[tidal-barrages]]\n\nA tidal barrage holds")).toBe(true);
    expect(body.contextText.match(/^# Tidal Barrages$/gm)).toHaveLength(1);
  });

  test("v1: {context, pages:[{slug,title,url}], thin}", async () => {
    const body = await expectJson(await post(`/api/v1/brains/${brainId}/context`, { query: "heat pump efficiency" }), 200);
    expect(Object.keys(body).sort()).toEqual(["context", "pages", "thin"]);
    expect(body.pages[0]).toEqual({ slug: "heat-pumps", title: "Heat Pumps", url: `${s.url}/api/v1/brains/${brainId}/pages/heat-pumps`, score: 1 });
    expect(body.context).toContain("three times more efficient");
  });

  test("nothing matching: no pages, thin", async () => {
    const body = await expectJson(await post(`/api/brains/${brainId}/context`, { query: "zebra migration patterns" }), 200);
    expect(body).toEqual({ contextText: "", pages: [], thin: true });
  });
});
