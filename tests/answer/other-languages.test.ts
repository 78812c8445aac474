// Questions and pages in German, French, Spanish or Dutch: the question's function words are stopwords too
// (src/lib/function-words.ts), an English question is never read as another language, and a German ordinal
// ("am 31. März", "in der 2. Klasse") does not end a sentence. Pages are written by the test.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { foreignLanguage } from "../../src/lib/function-words";
import { queryTerms } from "../../src/retrieval/terms";
import { sentencesOf } from "../../src/modules/answer/sentences";
import { expectJson, startTestServer, type TestServer } from "../support/server";
import { addText, newBrain, waitForSource } from "../support/sources";

describe("the question's language", () => {
  test("German, French, Spanish and Dutch questions lose their function words", () => {
    expect(queryTerms("Wie viel wird für Hotels erstattet?")).toEqual(["hotels", "erstattet"]);
    expect(queryTerms("Wer genehmigt Urlaubsanträge?")).toEqual(["genehmigt", "urlaubsanträge"]);
    expect(queryTerms("Combien de jours de congé ai-je ?")).toEqual(["jours", "congé"]);
    expect(queryTerms("¿Cuántos días de vacaciones tengo?")).toEqual(["días", "vacaciones", "tengo"]);
    expect(queryTerms("Hoeveel vakantiedagen heb ik?")).toEqual(["vakantiedagen"]);
  });

  test("an English question keeps every word a foreign list holds: 'die', 'con', 'war'", () => {
    expect(foreignLanguage(["what", "is", "the", "war", "in", "spain"])).toBeNull();
    expect(queryTerms("Die Hard sequel release date")).toEqual(["die", "hard", "sequel", "release", "date"]);
    expect(queryTerms("Con Edison outage")).toEqual(["con", "edison", "outage"]);
  });

  test("a German ordinal does not end a sentence; an English number still does", () => {
    const texts = (text: string) => sentencesOf(text).map((s) => s.text);
    expect(texts("Bahnfahrten werden in der 2. Klasse gebucht. Hotelkosten werden erstattet.")).toEqual([
      "Bahnfahrten werden in der 2. Klasse gebucht.",
      "Hotelkosten werden erstattet.",
    ]);
    expect(texts("The limit is 12. The pump stops.")).toEqual(["The limit is 12.", "The pump stops."]);
  });
});

describe("a German handbook", () => {
  let s: TestServer;
  let brainId: string;
  const sourceOf: Record<string, string> = {};
  const PAGES: Record<string, string> = {
    Urlaubsregelung:
      "Jede Vollzeitkraft hat Anspruch auf 30 Tage bezahlten Urlaub im Jahr. Urlaubsanträge werden in Personio gestellt und von der Teamleitung genehmigt. Nicht genommener Urlaub verfällt am 31. März des Folgejahres.",
    Reisekosten: "Bahnfahrten werden in der 2. Klasse gebucht. Hotelkosten werden bis 120 Euro pro Nacht erstattet.",
  };
  beforeAll(async () => {
    s = await startTestServer();
    brainId = await newBrain(s, "Handbuch");
    for (const [title, content] of Object.entries(PAGES)) sourceOf[title] = (await addText(s, brainId, title, content)).source.id;
    for (const id of Object.values(sourceOf)) await waitForSource(s, brainId, id);
  });
  afterAll(() => s.close());
  const ask = async (question: string) => expectJson(await s.api(`/api/brains/${brainId}/ask`, { method: "POST", json: { question } }), 200);

  test("German questions are answered from the page that says it, whole sentences quoted", async () => {
    const hotel = await ask("Wie viel wird für Hotels erstattet?");
    expect(hotel.thin).toBe(false);
    expect(hotel.answerMd).toContain("Hotelkosten werden bis 120 Euro pro Nacht erstattet.");
    expect(hotel.citations.map((c: any) => c.documentId)).toEqual([sourceOf.Reisekosten]);
    const expiry = await ask("Wann verfällt der Urlaub?");
    expect(expiry.thin).toBe(false);
    expect(expiry.answerMd).toContain("verfällt am 31. März des Folgejahres.");
  });

  test("a German question the pages do not answer is thin", async () => {
    expect(await ask("Gibt es einen Firmenwagen?")).toMatchObject({ thin: true, citations: [] });
  });
});
