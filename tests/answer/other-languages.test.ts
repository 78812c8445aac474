// Questions and pages in German, French, Spanish or Dutch: the question's function words are stopwords too
// (src/lib/function-words.ts), an English question is never read as another language, and a German ordinal
// ("am 31. März", "in der 2. Klasse") does not end a sentence. The German handbook's answers are a table: tests/answer/cases/german-handbook.ts.
import { describe, expect, test } from "bun:test";
import { foreignLanguage } from "../../src/lib/function-words";
import { queryTerms } from "../../src/retrieval/terms";
import { sentencesOf } from "../../src/modules/answer/sentences";

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
