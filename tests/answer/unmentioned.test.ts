// Which names of a question the retrieved pages do not say (unmentioned.ts): the pure rule, on its edge cases.
import { expect, test } from "bun:test";
import { unmentionedNames, unmentionedNote } from "../../src/modules/answer/unmentioned";
import type { RetrievedPage } from "../../src/retrieval";

const page = (title: string, markdown: string): RetrievedPage => ({ pageId: 1, brainId: "b", sourceId: "s", slug: "p", title, markdown, updatedAt: 0, score: 1, lexical: 1, cosine: null });
const pages = [
  page("Supported carriers", "Parcelwise connects to USPS, UPS and FedEx. Canada Post and Royal Mail are on the roadmap."),
  page("Rhine", "Hervé Martin mapped the Rhine–Meuse delta for the Roman archives."),
  page("Versioning", "Override the version per request with the `Brightpay-Version` header. Maria Perry married in 2020."),
];

test("mixed-case and capitalized names past the first word that no page says, runs of them joined", () => {
  expect(unmentionedNames("Is there a GraphQL API?", pages)).toEqual(["GraphQL"]);
  expect(unmentionedNames("Do you ship with La Poste or Deutsche Post?", pages)).toEqual(["La Poste", "Deutsche Post"]);
  expect(unmentionedNote(["La Poste", "Deutsche Post"])).toBe("No page of this brain mentions La Poste or Deutsche Post; the closest pages say:");
});

test("a name is said in any form, accents and dashes aside; a run whose words are all said apart is no missing name", () => {
  expect(unmentionedNames("Does Parcelwise support Royal Mail and FedEx's Ground?", pages)).toEqual(["FedEx Ground"]);
  expect(unmentionedNames("Does UPS Ground ship to Royal Mail depots?", pages)).toEqual(["Ground"]);
  expect(unmentionedNames("Does UPS ship to Royal Mail depots?", pages)).toEqual([]);
  expect(unmentionedNames("Who was Herve Martin?", pages)).toEqual([]);
  expect(unmentionedNames("Where is the Rhine-Meuse delta?", pages)).toEqual([]);
  expect(unmentionedNames("What did the Romans keep?", pages)).toEqual([]);
  // A stem that ends otherwise than the word ("brightpay" → "brightpai", "marry" → "marri") still says it.
  expect(unmentionedNames("What is the Brightpay-Version header for?", pages)).toEqual([]);
  expect(unmentionedNames("When did Maria Perry marry?", pages)).toEqual([]);
  expect(unmentionedNames("When does Canada Post start?", pages)).toEqual([]);
  // A run is a name of its own: no page says "Canada Post Express".
  expect(unmentionedNames("When does Canada Post Express start?", pages)).toEqual(["Canada Post Express"]);
});

test("no note for title-case questions, words in capitals, months and days, the first word, or no pages", () => {
  expect(unmentionedNames("Is There A GraphQL Endpoint For Orders?", pages)).toEqual([]);
  expect(unmentionedNames("What is the SLA for DHL?", pages)).toEqual([]);
  // Months and days are capitalized, not names: a changelog says October as "2026-10-02".
  expect(unmentionedNames("What changed in the October release on Monday?", pages)).toEqual([]);
  expect(unmentionedNames("Do I need a doctor's note when I'm sick, or if I've been away?", pages)).toEqual([]);
  expect(unmentionedNames("Shopify orders are missing?", pages)).toEqual([]);
  expect(unmentionedNames("Is there a GraphQL API?", [])).toEqual([]);
});

test("a word some page of the index holds, though not the pages found, is no missing name", () => {
  const stats = { pageCount: 3, documentFrequency: new Map([["graphql", 1], ["poste", 0]]) };
  expect(unmentionedNames("Is there a GraphQL API?", pages, stats)).toEqual([]);
  expect(unmentionedNames("Do you ship with La Poste?", pages, stats)).toEqual(["La Poste"]);
});
