// A command-line tool's documentation, as projects write it: a command reference, troubleshooting by symptom,
// where things live on disk. Asked over real HTTP; the pages are written by the test and answers are checked
// for what they should quote.
// Its questions asked of the pages are a table: tests/answer/cases/tool-docs.ts.
import { expect, test } from "bun:test";
import { stem } from "../../src/modules/answer/sentences";
import { queryTerms } from "../../src/retrieval";
import { weighEvidence } from "../../src/modules/answer/evidence";
import { holdsAnswerType } from "../../src/modules/answer/answer-type";
import { titledByHeading } from "../support/sources";

test("an -ly adverb stems as its adjective when English writes it, and only then", () => {
  const same: [string, string][] = [["recursively", "recursive"], ["easily", "easy"], ["automatically", "automatic"], ["possibly", "possible"], ["usually", "usual"], ["weekly", "week"]];
  for (const [adverb, adjective] of same) expect(stem(adverb)).toBe(stem(adjective));
  // Words that only look like adverbs, and adverbs that say something else than their adjective.
  // "Spendly" and "Grammarly" are names: an adverb English does not write is one only when its adjective looks like one.
  const apart: [string, string][] = [["supply", "supp"], ["simply", "simp"], ["family", "fam"], ["early", "ear"], ["hardly", "hard"], ["likely", "like"], ["only", "on"], ["spendly", "spend"], ["grammarly", "grammar"]];
  for (const [word, other] of apart) expect(stem(word)).not.toBe(stem(other));
});


test("a contraction is no term: 'don't' leaves no 'don', and 'won' stays a word", () => {
  expect(queryTerms("What happens if I don't pass --delete?")).toEqual(["happens", "pass", "delete"]);
  expect(queryTerms("I'll go, you're late, we've seen, I'd say, I can’t log in")).toEqual(["go", "late", "seen", "say", "log"]);
  expect(queryTerms("Who won the cup? Who won't?")).toEqual(["won", "cup"]);
});


test("'what happens if …' asks for a consequence: 'happens' weighs nothing, as a page need not say it", () => {
  const termsWeighed = (question: string) => {
    const page = { pageId: 1, brainId: "b", sourceId: "s1", slug: "p1", title: "Command reference", markdown: "`--delete`: remove files from DEST that are not in SOURCE.", updatedAt: 0, score: 1, lexical: 1, cosine: null };
    const stats = { pageCount: 1, documentFrequency: new Map<string, number>() };
    return weighEvidence(question, { query: question, terms: queryTerms(question), mode: "lexical", pages: [page], stats }, stats).terms;
  };
  expect(termsWeighed("What happens if I don't pass --delete?")).toEqual(["pass", "delete"]);
  expect(termsWeighed("What happened to the deleted files?")).toEqual(["deleted", "files"]);
  // Not a consequence asked for: the word is what is asked about.
  expect(termsWeighed("Which events happen daily?")).toContain("happen");
});


test("an API's endpoint after its method is no place; a file's path is", () => {
  const place = (text: string) => holdsAnswerType(text, "place", new Set());
  expect(place("`POST /v1/orders` creates an order.")).toBe(false);
  expect(place("to read one, `GET /v1/orders/{id}` returns it.")).toBe(false);
  expect(place("Logs are written to /var/log/tern/tern.log by default.")).toBe(true);
  expect(place("The config lives in `~/.config/tern/config.toml`.")).toBe(true);
  expect(place("Download it from https://example.com/tern.")).toBe(true);
});
