// A concept page of a person quotes the sentence that goes on about them ("… she led …") with the sentence
// naming them, within a paragraph, when the pronoun is theirs. Extraction directly, and a brain over real HTTP.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { extractConcepts } from "../../src/concepts/extract";
import { pronounOf } from "../../src/concepts/given-names";
import { expectJson, startTestServer, type TestServer } from "../support/server";
import { addTextsReady, newBrain } from "../support/sources";

const mentionsOf = (markdown: string, title: string) =>
  extractConcepts([{ slug: "p", title: "T", markdown }], "T").find((c) => c.title === title)?.mentions.map((m) => m.sentence) ?? [];

test("a first name's pronoun: the lists it is in", () => {
  expect(pronounOf("Maria")).toBe("she");
  expect(pronounOf("Edwin")).toBe("he");
  expect(pronounOf("Jordan")).toBe("either");
  expect(pronounOf("Zyxx")).toBe("either");
});

test("the next sentence of the paragraph joins the mention when its pronoun is the one person's", () => {
  expect(mentionsOf("# T\n\nMaria Santos is the chief executive officer. Before founding Tidewater she led the data platform team at Intel.", "Maria Santos")).toEqual([
    "Maria Santos is the chief executive officer. Before founding Tidewater she led the data platform team at Intel.",
  ]);
  // Not another person's pronoun, nor one the sentence before already uses for someone else.
  expect(mentionsOf("# T\n\nMaria Lopez joined in 2019. He left in 2020.", "Maria Lopez")).toEqual(["Maria Lopez joined in 2019."]);
  expect(mentionsOf("# T\n\nIn 1920 she founded the firm with her tutor Edwin Hart. She ran the drawing office.", "Edwin Hart")).toEqual([
    "In 1920 she founded the firm with her tutor Edwin Hart.",
  ]);
  // Not across paragraphs, nor when the sentence names two people, nor a sentence naming someone.
  expect(mentionsOf("# T\n\nTom Baird leads sales.\n\nHe built the team.", "Tom Baird")).toEqual(["Tom Baird leads sales."]);
  expect(mentionsOf("# T\n\nTom Baird and Kenji Watanabe founded it. He built the team.", "Tom Baird")).toEqual(["Tom Baird and Kenji Watanabe founded it."]);
  expect(mentionsOf("# T\n\nTom Baird leads sales. He reports to Kenji Watanabe.", "Tom Baird")).toEqual(["Tom Baird leads sales."]);
});

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

test("a person's concept page says what the sentence after their name says of them", async () => {
  const brainId = await newBrain(s, "Tidewater");
  await addTextsReady(s, brainId, {
    Leadership: "Maria Santos is the chief executive officer. Before founding Tidewater she led the data platform team at Intel.",
    "Company history": "Tidewater Analytics was founded in 2014 in Portland by Maria Santos and Kenji Watanabe.",
  });
  const { page } = await expectJson(await s.api(`/api/v1/brains/${brainId}/pages/maria-santos`), 200);
  expect(page.markdown).toContain("Maria Santos is the chief executive officer. Before founding Tidewater she led the data platform team at Intel");
});
