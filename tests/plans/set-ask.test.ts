import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectJson, startTestServer, type TestServer } from "../support/server";
import { addText, newBrain, waitForSource } from "../support/sources";
import { startOllamaStandin, type OllamaStandin } from "../support/ollama-standin";

let s: TestServer;
let ollama: OllamaStandin;
let primary: string, advisor: string, unrelated: string;

beforeAll(async () => {
  // A stand-in model that cites every page it is given, one sentence each: the set's tagging is what is tested.
  ollama = startOllamaStandin({
    reply: (req) => {
      const prompt: string = req.messages.at(-1).content;
      // Wiki synthesis at ingestion: keep the section as it is.
      if (prompt.includes("Source section:")) return prompt.split("Source section:\n\n")[1]!;
      const refs = [...prompt.matchAll(/^\[\[([^\]]+)\]\] (.*)$/gm)].map((m) => m[1]);
      return refs.length ? refs.map((r) => `A fact from that page. [[${r}]]`).join(" ") : "NOT_IN_PAGES";
    },
  });
  s = await startTestServer({ BRAINBOX_TEAM_QUOTA: "50", BRAINBOX_OLLAMA_URL: ollama.url });
  primary = await newBrain(s, "Energy Primary");
  advisor = await newBrain(s, "Energy Advisor");
  unrelated = await newBrain(s, "Kitchen");
  const add = async (brain: string, title: string, text: string) => waitForSource(s, brain, (await addText(s, brain, title, text)).source.id);
  await add(primary, "Solar Panels", "Solar panels convert sunlight into electricity with photovoltaic cells made of silicon. A typical rooftop solar panel produces about 400 watts at peak.");
  await add(advisor, "Solar Panels", "Solar panels lose roughly half a percent of their output every year, so a solar panel installed today still produces about 88 percent after 25 years.");
  await add(unrelated, "Sourdough", "Sourdough bread rises with a starter of wild yeast and lactic acid bacteria, fed with flour and water.");
});
afterAll(async () => {
  await s.close();
  await ollama.stop();
});

const makeSet = async (advisors: string[]) =>
  (await expectJson(await s.api("/api/v1/brain-sets", { method: "POST", json: { name: `Set ${Math.random()}`, primaryBrainId: primary, advisorBrainIds: advisors } }), 201)).brainSet.id;
const askSet = (setId: string, question: string, key?: string) => s.api(`/api/v1/brain-sets/${setId}/ask`, { method: "POST", json: { question }, key });

describe("brain-set ask", () => {
  test("citations are tagged by brain; a slug both brains share is told apart; advisorContributed", async () => {
    const setId = await makeSet([advisor]);
    const body = await expectJson(await askSet(setId, "How much output do solar panels lose every year and how do solar panels make electricity?"), 200);
    expect(body.thin).toBe(false);
    const fromPrimary = body.citations.find((c: any) => c.brain.id === primary);
    const fromAdvisor = body.citations.find((c: any) => c.brain.id === advisor);
    expect(fromPrimary.brain).toEqual({ id: primary, name: "Energy Primary", kind: "primary" });
    expect(fromAdvisor.brain).toEqual({ id: advisor, name: "Energy Advisor", kind: "advisor" });
    // Both pages have the slug solar-panels: their refs in the answer tell them apart.
    expect(fromPrimary.slug).toBe("solar-panels");
    expect(fromAdvisor.slug).toBe("solar-panels");
    expect(fromPrimary.ref).not.toBe(fromAdvisor.ref);
    expect(body.answer).toContain(`[[${fromPrimary.ref}]]`);
    expect(body.answer).toContain(`[[${fromAdvisor.ref}]]`);
    expect(body.advisorContributed).toBe(true);
    for (const c of body.citations) expect(c.url).toBe(`${s.url}/api/v1/brains/${c.brain.id}/pages/${c.slug}`);
    expect(body.quota).toMatchObject({ limit: 50 });
  });

  test("advisors with nothing relevant: advisorContributed false", async () => {
    const setId = await makeSet([unrelated]);
    const body = await expectJson(await askSet(setId, "How do solar panels make electricity?"), 200);
    expect(body.thin).toBe(false);
    expect(body.advisorContributed).toBe(false);
    expect(body.citations.every((c: any) => c.brain.kind === "primary")).toBe(true);
  });

  test("a Free caller gets 403 plan_required; someone else's set is 404; bad questions are 422", async () => {
    const free = await expectJson(await s.api("/api/v1/admin/accounts", { method: "POST", json: { name: "Freeloader", plan: "free" } }), 201);
    const setId = await makeSet([advisor]);
    const refused = await expectJson(await askSet(setId, "solar?", free.apiKey.key), 403);
    expect(refused.error.code).toBe("plan_required");
    const pro = await expectJson(await s.api("/api/v1/admin/accounts", { method: "POST", json: { name: "Pro", plan: "pro" } }), 201);
    expect((await expectJson(await askSet(setId, "solar?", pro.apiKey.key), 404)).error.code).toBe("not_found");
    expect((await expectJson(await askSet(setId, "   "), 422)).error.field).toBe("question");
  });
});
