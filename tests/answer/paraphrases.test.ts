// Everyday phrases asked of the one word a policy writes instead. Its answers are a table:
// tests/answer/cases/policies.ts.
import { expect, test } from "bun:test";
import { termVariants } from "../../src/retrieval";

test("a paraphrase goes one way only", () => {
  expect(termVariants(["money", "back"])).toEqual([
    { term: "money", variant: "refund" },
    { term: "back", variant: "refund" },
  ]);
  // A question saying "refund" is not asked of a page saying "money" and "back".
  expect(termVariants(["refund"])).toEqual([]);
});
