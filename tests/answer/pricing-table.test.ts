// A pricing page's table and a billing FAQ, as SaaS help centres write them. Asked over real HTTP; the pages are
// written by the test and answers are checked for what they should quote.
import { expect, test } from "bun:test";
import { brainOf } from "../support/sources";

const ask = brainOf("Pricing", {
  Plans: `# Plans

| Plan | Price per user | Storage | Support |
|---|---|---|---|
| Starter | $8/month | 10 GB | Email |
| Team | $15/month | 100 GB | Email and chat |
| Business | $25/month | 1 TB | 24/7 phone |

All plans include SSO except Starter. The free trial lasts 14 days and needs no credit card.`,
  "Billing FAQ": `# Billing FAQ

## Which payment methods do you accept?

Visa, Mastercard, American Express and SEPA direct debit.`,
});

test("'how many' of a table's rows is their count and their names", async () => {
  // Was a refund sentence and two rows.
  const body = await ask("How many plans are there?");
  expect(body.answer).toStartWith("3:\n- Starter\n- Team\n- Business");
});

test("a comparative compares the rows the question names, not the whole table", async () => {
  // Was thin; the cheapest plan overall (Starter) is no answer.
  const body = await ask("Which plan is cheaper, Team or Business?");
  expect(body.thin).toBe(false);
  expect(body.answer).toContain("Plan: Team; Price per user: $15/month");
  expect(body.answer).toContain("Plan: Business; Price per user: $25/month");
  expect(body.answer).not.toContain("Starter");
});

test("a superlative still compares every row", async () => {
  const body = await ask("Which plan is cheapest?");
  expect(body.answer).toContain("Plan: Starter; Price per user: $8/month");
});

test("'Amex' is American Express", async () => {
  // Was thin.
  const body = await ask("Can I pay with Amex?");
  expect(body.thin).toBe(false);
  expect(body.answer).toContain("Visa, Mastercard, American Express and SEPA direct debit.");
});
