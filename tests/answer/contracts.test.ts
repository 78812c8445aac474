// Numbers in a legal page's bands: stems of decimals, and what a bound holds. The pages' answers are a table:
// tests/answer/cases/hostly-legal.ts.
import { expect, test } from "bun:test";
import { stem } from "../../src/modules/answer/sentences";
import { weighEvidence } from "../../src/modules/answer/evidence";
import { queryTerms } from "../../src/retrieval";

test("'95.0' says 95", () => {
  expect(stem("95.0")).toBe("95");
  expect(stem("2.5")).toBe("2.5");
});

test("a bound holds only a percentage the question states: 'at least 2 years' says nothing of a 409", () => {
  const ownCoverage = (question: string, markdown: string) => {
    const page = { pageId: 1, brainId: "b", sourceId: "s1", slug: "p1", title: "Versioning", markdown, updatedAt: 0, score: 1, lexical: 1, cosine: null };
    const stats = { pageCount: 1, documentFrequency: new Map<string, number>() };
    return weighEvidence(question, { query: question, terms: queryTerms(question), mode: "lexical", pages: [page], stats }, stats).sentences[0]!.ownCoverage;
  };
  // Was 0.86: "409" counted as held by "at least 2".
  expect(ownCoverage("What does a 409 mean?", "Old versions are supported for at least 2 years after their successor is released.")).toBeLessThan(0.5);
  expect(ownCoverage("What credit applies at 90% uptime?", "Credit applies when uptime is below 95.0%.")).toBe(1);
});
