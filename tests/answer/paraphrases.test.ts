// Everyday phrases asked of the one word a policy writes instead ("money back" of "refund", "time off" of
// "leave"), and a protocol's location question answered by the one sentence saying it. Asked over real HTTP;
// the pages are written by the test and answers are checked for what they should quote.
import { expect, test } from "bun:test";
import { brainOf } from "../support/sources";

const ask = brainOf("Policies", {
  "Billing FAQ": `# Billing FAQ

## How do refunds work?

We refund annual plans in full within 30 days of purchase. Monthly plans can be cancelled at any time.

## Which payment methods do you accept?

Visa, Mastercard and SEPA direct debit.`,
  "Leave policy": `# Leave policy

Employees get 25 days of paid annual leave a year, plus public holidays.

Sick leave: tell your manager before 10:00 on the first day.`,
  "PCR protocol": `# PCR protocol

1. Thaw the reagents on ice and vortex briefly.
2. Mix 12.5 µl of 2x master mix, 1 µl of each primer (10 µM), 2 µl of template DNA and 8.5 µl of water.

Primers are kept in the blue box on the second shelf of freezer B.`,
});

test("'money back' is asked of a page that says 'refund'", async () => {
  // Was thin.
  const body = await ask("Can I get my money back?");
  expect(body.thin).toBe(false);
  expect(body.answer).toContain("We refund annual plans in full within 30 days of purchase.");
});

test("'time off' is asked of a page that says 'leave'", async () => {
  const body = await ask("How much time off do I get?");
  expect(body.thin).toBe(false);
  expect(body.answer).toContain("Employees get 25 days of paid annual leave a year");
});

test("a paraphrase goes one way only", async () => {
  const { termVariants } = await import("../../src/retrieval");
  expect(termVariants(["money", "back"])).toEqual([
    { term: "money", variant: "refund" },
    { term: "back", variant: "refund" },
  ]);
  // A question saying "refund" is not asked of a page saying "money" and "back".
  expect(termVariants(["refund"])).toEqual([]);
});

test("a sentence saying where, whole, is not joined by another of its page naming the thing in passing", async () => {
  // Was also the step that pipettes the primers, quoted first.
  const body = await ask("Where are the primers kept?");
  expect(body.answer).toContain("Primers are kept in the blue box on the second shelf of freezer B.");
  expect(body.answer).not.toContain("Mix 12.5");
});
