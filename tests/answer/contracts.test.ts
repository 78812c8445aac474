// A service's legal pages, as vendors write them: an SLA's table of credits by uptime band, terms of service.
// Asked over real HTTP; the pages are written by the test and answers are checked for what they should quote.
import { expect, test } from "bun:test";
import { stem } from "../../src/modules/answer/sentences";
import { weighEvidence } from "../../src/modules/answer/evidence";
import { queryTerms } from "../../src/retrieval";
import { brainOf, titledByHeading } from "../support/sources";

const SLA = `# Service level agreement

## Service credits

| Monthly uptime | Credit (Business) | Credit (Enterprise) |
|---|---|---|
| 99.0% to 99.95% | 10% | 15% |
| 95.0% to 99.0% | 25% | 30% |
| Below 95.0% | 50% | 100% |

Credits are applied to the next invoice and never paid out in cash.`;

const TERMS = `# Terms of service

Hostly's total liability in any year is limited to the fees the customer paid in the previous 12 months.

These terms are governed by Irish law, and disputes go to the courts of Dublin.`;

const ask = brainOf("Hostly legal", titledByHeading(SLA, TERMS));

test("a number in a band of decimals is that band's: 98% is '95.0% to 99.0%'", async () => {
  // Was every row: the bands' decimals were no range, so no row said 98.
  const body = await ask("What credit do I get if uptime is 98%?");
  expect(body.answer).toContain("Monthly uptime: 95.0% to 99.0%; Credit (Business): 25%; Credit (Enterprise): 30%.");
  expect(body.answer).not.toContain("99.0% to 99.95%");
  expect(body.answer).not.toContain("Below 95.0%");
});

test("a bound holds the numbers on its side, and '95.0' says 95", async () => {
  // Was thin: "95" of the question was not "95.0" of the row.
  const below = await ask("What is the credit for Enterprise below 95%?");
  expect(below.thin).toBe(false);
  expect(below.answer).toContain("Monthly uptime: Below 95.0%; Credit (Business): 50%; Credit (Enterprise): 100%.");
  const ninety = await ask("What credit do I get at 90% uptime?");
  expect(ninety.answer).toContain("Monthly uptime: Below 95.0%");
  expect(ninety.answer).not.toContain("95.0% to 99.0%");
  expect(stem("95.0")).toBe("95");
  expect(stem("2.5")).toBe("2.5");
});

test("'These terms are …' names what it is about: the sentence before is not brought along", async () => {
  // Was "Hostly's total liability … These terms are governed by Irish law …": read as a pronoun's sentence.
  const body = await ask("Which law governs the terms?");
  expect(body.answer).toContain("These terms are governed by Irish law");
  expect(body.answer).not.toContain("liability");
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
