// Answers follow links: a bridge question whose two facts sit in two sources retrieves both, through the
// concept page that joins them; without expansion the second source is missed. Concept pages route, they
// are never returned as evidence themselves.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { answerService } from "../../src/modules/answer";
import { expectJson, startTestServer, type TestServer } from "../support/server";
import { addText, newBrain, waitForSource } from "../support/sources";

let s: TestServer;
let brainId: string;
beforeAll(async () => {
  s = await startTestServer();
  brainId = await newBrain(s, "Bridges");
  const docs: [string, string][] = [
    ["Egton Observatory", "The Egton Observatory is an observatory that stands on a hill. The Egton Observatory was designed by Henrik Delacroix and opened in 1911."],
    ["Early years of Delacroix", "Henrik Delacroix was born in Crowmarsh in 1867. As a young student he studied astronomy at the Mariners' Institute."],
    ["Thornton Library", "The Thornton Library holds rare maps. Henrik Delacroix designed the Thornton Library, which opened in 1897."],
    ...Array.from({ length: 8 }, (_, i): [string, string] => [
      `Harbour ${i}`,
      `The Harbour ${i} Museum was designed by Astrid Novak${i}, who was born in Kilnsea, and it opened in ${1850 + i}.`,
    ]),
  ];
  for (const [title, content] of docs) await waitForSource(s, brainId, (await addText(s, brainId, title, content)).source.id);
});
afterAll(() => s.close());

const QUESTION = "In which town was the architect who designed Egton Observatory born?";

test("with expansion /context holds both sources of a bridge question; concept pages are not among them", async () => {
  const ctx = await expectJson(await s.api(`/api/brains/${brainId}/context`, { method: "POST", json: { query: QUESTION } }), 200);
  const slugs = ctx.pages.map((p: any) => p.slug);
  expect(slugs).toContain("egton-observatory");
  expect(slugs).toContain("early-years-of-delacroix");
  expect(slugs).not.toContain("henrik-delacroix"); // the concept page routed, the sources answer
  const retriever = answerService(s.ctx).retriever;
  const plain = await retriever.retrieve({ brains: [{ id: brainId }], query: QUESTION, expand: false });
  const expanded = await retriever.retrieve({ brains: [{ id: brainId }], query: QUESTION });
  const rank = (r: typeof plain) => r.pages.findIndex((p) => p.slug === "early-years-of-delacroix");
  // Linked in: ranked right below the pages that led to it, above the distractors that only share words.
  expect(rank(expanded)).toBeGreaterThanOrEqual(0);
  expect(rank(plain) === -1 || rank(plain) > rank(expanded)).toBe(true);
  expect(expanded.pages[0]!.slug).toBe("egton-observatory"); // the direct hit keeps its place
});

test("a comparison over two sources sharing a concept cites both sources", async () => {
  const body = await expectJson(
    await s.api(`/api/brains/${brainId}/ask`, { method: "POST", json: { question: "Which opened first, Egton Observatory or Thornton Library, both designed by Henrik Delacroix?" } }),
    200,
  );
  expect(body.thin).toBe(false);
  const cited = body.citations.map((c: any) => c.slug);
  expect(cited).toEqual(expect.arrayContaining(["egton-observatory", "thornton-library"]));
  expect(body.answerMd).toContain("1911");
  expect(body.answerMd).toContain("1897");
});

test("a question about a concept cites the sources that name it: documentId always names a real source", async () => {
  const concept = await expectJson(await s.api(`/api/v1/brains/${brainId}/pages/henrik-delacroix`), 200);
  expect(concept.page.kind).toBe("concept"); // the page that matches the question best by its title
  const { sources } = await expectJson(await s.api(`/api/v1/brains/${brainId}/sources`), 200);
  const sourceIds = new Set(sources.map((x: any) => x.id));
  const body = await expectJson(await s.api(`/api/brains/${brainId}/ask`, { method: "POST", json: { question: "Henrik Delacroix" } }), 200);
  expect(body.thin).toBe(false);
  expect(body.citations.length).toBeGreaterThan(0);
  for (const c of body.citations) {
    expect(c.slug).not.toBe("henrik-delacroix");
    expect(sourceIds.has(c.documentId)).toBe(true);
    const page = await expectJson(await s.api(`/api/v1/brains/${brainId}/pages/${c.slug}`), 200);
    expect(page.page.sourceId).toBe(c.documentId);
  }
  const v1 = await expectJson(await s.api(`/api/v1/brains/${brainId}/ask`, { method: "POST", json: { question: "Who is Henrik Delacroix?" } }), 200);
  expect(v1.citations.map((c: any) => c.slug)).not.toContain("henrik-delacroix");
});

test("a bridge question in other words than its second source ('come from' / 'was born in'): that source is linked in and gives the place", async () => {
  const question = "Where does the architect who designed Egton Observatory come from?";
  const retriever = answerService(s.ctx).retriever;
  const plain = await retriever.retrieve({ brains: [{ id: brainId }], query: question, expand: false });
  expect(plain.pages.map((p) => p.slug)).not.toContain("early-years-of-delacroix"); // it shares no word with the question
  const body = await expectJson(await s.api(`/api/brains/${brainId}/ask`, { method: "POST", json: { question } }), 200);
  expect(body.thin).toBe(false);
  expect(body.answerMd).toContain("designed by Henrik Delacroix");
  expect(body.answerMd).toContain("born in Crowmarsh");
  expect(body.citations.map((c: any) => c.slug)).toEqual(expect.arrayContaining(["egton-observatory", "early-years-of-delacroix"]));
});

test("the kind of answer is asked by the question's first wh-word, not by a clause's", async () => {
  const { expectedAnswerType } = await import("../../src/modules/answer/answer-type");
  expect(expectedAnswerType("Where does the architect who designed Egton Observatory come from?")).toBe("place");
  expect(expectedAnswerType("Who lived where the river bends?")).toBe("person");
  expect(expectedAnswerType("When did the man who built it die?")).toBe("time");
  expect(expectedAnswerType("How many bridges did the engineer who was born in Kilnsea design?")).toBe("quantity");
  expect(expectedAnswerType("Which opened first?")).toBeNull();
});

test("a bridge whose question names a role other pages around hold ('engineer' / 'civil engineering'): the second source is still linked in", async () => {
  const brain = await newBrain(s, "Dams");
  const designers = ["Olaf Berg", "Ines Carvalho", "Pavel Novotny", "Maren Holt", "Tobias Lind"];
  const docs: [string, string][] = [
    ["Yelland Dam", "The Yelland Dam is a dam that holds back the river. The Yelland Dam was designed by Freya Duval and opened in 1889."],
    ["Early years of Duval", "Freya Duval was born in Umberfold in 1850. As a young student she studied geology at the School of Mines."],
    ...designers.flatMap((name, i): [string, string][] => [
      [`Harrow Dam ${i}`, `The Harrow Dam ${i} is a dam that holds back the lake. The Harrow Dam ${i} was designed by ${name} and opened in ${1860 + i}.`],
      [`Early years of ${name}`, `${name} was born in Kilnsea in ${1820 + i}. As a young student ${name} studied civil engineering at the Royal Polytechnic.`],
    ]),
  ];
  for (const [title, content] of docs) await waitForSource(s, brain, (await addText(s, brain, title, content)).source.id);
  const question = "In which town was the engineer who designed Yelland Dam born?";
  const ctx = await expectJson(await s.api(`/api/v1/brains/${brain}/context`, { method: "POST", json: { query: question } }), 200);
  expect(ctx.pages.map((p: any) => p.slug).slice(0, 2)).toEqual(["yelland-dam", expect.any(String)]);
  expect(ctx.pages.map((p: any) => p.slug)).toContain("early-years-of-duval");
  for (const p of ctx.pages) expect(Number.isFinite(p.score)).toBe(true);
  const body = await expectJson(await s.api(`/api/brains/${brain}/ask`, { method: "POST", json: { question } }), 200);
  expect(body.thin).toBe(false);
  expect(body.answerMd).toContain("born in Umberfold");
  expect(body.citations.map((c: any) => c.slug)).toEqual(expect.arrayContaining(["yelland-dam", "early-years-of-duval"]));
});
