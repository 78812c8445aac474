// Issue 14's bad inputs on every surface that takes a question: /ask and /context, v1 and unversioned, over a
// brain of one page and a small brain with pages in other scripts. One-word questions, questions of only
// stopwords or punctuation, numbers written as words, Cyrillic and CJK: a clear 200 answer every time (thin
// with no citations when nothing matches), and the right page when the words are there.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectJson, startTestServer, type TestServer } from "../support/server";
import { addText, newBrain, waitForSource } from "../support/sources";

const OBSERVATORY =
  "Hilltop Observatory was founded by the county astronomical society in 1962. Its main telescope is a 2.4 metre reflector housed under a silver dome. Public viewing nights are held on the first Friday of every month.";
const PAGES: Record<string, string> = {
  "Harbour Market": "The harbour market opens every Saturday morning on the old quay. Fishermen sell crab, mackerel and lobster straight from their boats.",
  "Обсерватория на холме": "Обсерватория на холме была основана в 1962 году. Её главный телескоп — рефлектор диаметром 2,4 метра. Экскурсии проходят по пятницам.",
  "山顶天文台": "山顶天文台建于1962年。它的主望远镜是一台口径2.4米的反射望远镜。每月第一个星期五晚上向公众开放。",
  "Lifeboat Station": "The lifeboat station was opened in 1895 after a string of shipwrecks on the reef. The station has saved more than three hundred lives.",
};

let s: TestServer;
let onePage: string;
let mixed: string;
const sourceOf: Record<string, string> = {};
beforeAll(async () => {
  s = await startTestServer();
  onePage = await newBrain(s, "One page");
  mixed = await newBrain(s, "Mixed scripts");
  const one = await addText(s, onePage, "Hilltop Observatory", OBSERVATORY);
  sourceOf["Hilltop Observatory"] = one.source.id;
  for (const [title, content] of Object.entries(PAGES)) sourceOf[title] = (await addText(s, mixed, title, content)).source.id;
  await waitForSource(s, onePage, one.source.id);
  for (const title of Object.keys(PAGES)) await waitForSource(s, mixed, sourceOf[title]!);
});
afterAll(() => s.close());

type Surface = "v1" | "unversioned";
const base = (surface: Surface, brain: string) => (surface === "v1" ? `/api/v1/brains/${brain}` : `/api/brains/${brain}`);

/** The answer in one shape for both surfaces: text, cited slugs, thin. */
async function ask(surface: Surface, brain: string, question: string) {
  const body = await expectJson(await s.api(`${base(surface, brain)}/ask`, { method: "POST", json: { question } }), 200);
  const text: string = surface === "v1" ? body.answer : body.answerMd;
  expect(typeof text).toBe("string");
  expect(typeof body.thin).toBe("boolean");
  if (body.thin) expect(body.citations).toEqual([]);
  return { text, thin: body.thin as boolean, slugs: body.citations.map((c: any) => c.slug) as string[], body };
}

async function context(surface: Surface, brain: string, query: string) {
  const body = await expectJson(await s.api(`${base(surface, brain)}/context`, { method: "POST", json: { query } }), 200);
  expect(typeof (surface === "v1" ? body.context : body.contextText)).toBe("string");
  expect(typeof body.thin).toBe("boolean");
  return { slugs: body.pages.map((p: any) => p.slug) as string[], thin: body.thin as boolean, pages: body.pages };
}

for (const surface of ["v1", "unversioned"] as const) {
  describe(`${surface}: a brain of one page`, () => {
    test("a question the page answers is answered from it; /context returns it with score 1", async () => {
      const answer = await ask(surface, onePage, "How tall is the main telescope?");
      expect(answer.thin).toBe(false);
      expect(answer.text).toContain("2.4 metre");
      expect(answer.slugs).toEqual(["hilltop-observatory"]);
      const ctx = await context(surface, onePage, "How tall is the main telescope?");
      expect(ctx.slugs).toEqual(["hilltop-observatory"]);
      expect(ctx.pages[0].score).toBe(1);
    });

    test("a question the page does not answer is thin, though the page is the only one", async () => {
      expect(await ask(surface, onePage, "Who rescued the crew of the Oriel?")).toMatchObject({ thin: true, slugs: [] });
      const ctx = await context(surface, onePage, "Who rescued the crew of the Oriel?");
      expect(ctx).toMatchObject({ slugs: [], thin: true });
    });

    test("one word: the page that has it", async () => {
      const ctx = await context(surface, onePage, "telescope");
      expect(ctx.slugs).toEqual(["hilltop-observatory"]);
      const answer = await ask(surface, onePage, "telescope");
      if (!answer.thin) expect(answer.slugs).toEqual(["hilltop-observatory"]);
      expect(await context(surface, onePage, "zeppelin")).toMatchObject({ slugs: [], thin: true });
    });

    test("only stopwords, only punctuation, emoji: no pages, thin", async () => {
      for (const question of ["what is the", "Who? When? Where?", "?!", "🔭🔭"]) {
        expect(await ask(surface, onePage, question)).toMatchObject({ thin: true, slugs: [] });
        expect(await context(surface, onePage, question)).toMatchObject({ slugs: [], thin: true });
      }
    });

    test("numbers written as words match the digits on the page", async () => {
      const answer = await ask(surface, onePage, "Was the observatory founded in nineteen sixty two?");
      expect(answer.thin).toBe(false);
      expect(answer.text).toContain("1962");
      expect((await context(surface, onePage, "founded in nineteen sixty two")).slugs).toEqual(["hilltop-observatory"]);
    });
  });

  describe(`${surface}: questions in other scripts`, () => {
    test("Cyrillic: the Cyrillic page is found, the answer cites it or is thin", async () => {
      const question = "Когда была основана обсерватория?";
      const ctx = await context(surface, mixed, question);
      expect(ctx.slugs[0]).toBe(ctx.slugs.find((slug) => slug !== "harbour-market" && slug !== "lifeboat-station"));
      const page = await expectJson(await s.api(`/api/v1/brains/${mixed}/pages/${encodeURIComponent(ctx.slugs[0]!)}`), 200);
      expect(page.page.title).toBe("Обсерватория на холме");
      const answer = await ask(surface, mixed, question);
      if (!answer.thin) {
        expect(answer.slugs).toEqual([ctx.slugs[0]!]);
        expect(answer.text).toContain("1962");
      }
    });

    test("Chinese: the Chinese page is found by the question's character pairs and answers it", async () => {
      const question = "山顶天文台的主望远镜有多大？";
      const ctx = await context(surface, mixed, question);
      const page = await expectJson(await s.api(`/api/v1/brains/${mixed}/pages/${encodeURIComponent(ctx.slugs[0]!)}`), 200);
      expect(page.page.title).toBe("山顶天文台");
      const answer = await ask(surface, mixed, question);
      expect(answer.thin).toBe(false);
      expect(answer.slugs).toEqual([ctx.slugs[0]!]);
      expect(answer.text).toContain("2.4米");
    });

    test("CJK: a clear answer, never an error; English pages are not cited for it", async () => {
      for (const question of ["山顶天文台的主望远镜有多大？", "望遠鏡の高さはどれくらいですか？", "천문대는 언제 설립되었나요?"]) {
        const ctx = await context(surface, mixed, question);
        expect(ctx.slugs).not.toContain("harbour-market");
        const answer = await ask(surface, mixed, question);
        expect(answer.slugs).not.toContain("harbour-market");
        expect(answer.slugs).not.toContain("lifeboat-station");
      }
    });

    test("an English question does not pull in the other scripts' pages", async () => {
      const ctx = await context(surface, mixed, "When did the lifeboat station open?");
      expect(ctx.slugs[0]).toBe("lifeboat-station");
      const answer = await ask(surface, mixed, "When did the lifeboat station open?");
      expect(answer.thin).toBe(false);
      expect(answer.text).toContain("1895");
    });
  });
}
