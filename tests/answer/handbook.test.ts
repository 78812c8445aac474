// A staff handbook, as employees ask it: "can I …", "when are … reimbursed?". Asked over real HTTP; the pages
// are written by the test and answers are checked for the sentences they should quote.
import { expect, test } from "bun:test";
import { brainOf } from "../support/sources";

const EXPENSES = `# Expense policy

## Travel

Book flights and hotels through TravelDesk. Taxis are fine after 22:00 or when carrying equipment.

## Home office

Each employee has a one-time home-office budget of €500 for a desk, chair or monitor.

## Meals

Meals with clients are reimbursed up to €60 per person. Alcohol is not reimbursed.

## Submitting

Submit expenses in Spendly within 30 days. Reimbursements are paid with the next monthly salary.`;

const REMOTE = `# Remote work

Core hours are 10:00 to 15:00 in your local time. Everyone may work from home up to three days a week.`;

const ask = brainOf("Handbook", { "Expense policy": EXPENSES, "Remote work": REMOTE });

test("'taxis' is the plural of taxi; a time's zeros match no other time; the next section's sentence is no neighbour", async () => {
  const body = await ask("Can I take a taxi home at 23:00?");
  expect(body.thin).toBe(false);
  expect(body.answer).toStartWith("Taxis are fine after 22:00 or when carrying equipment.");
  expect(body.answer).not.toContain("Core hours");
  expect(body.answer).not.toContain("home-office budget");
});

test("'reimbursements' says reimbursed: a -ment noun is its verb", async () => {
  const body = await ask("When are expenses reimbursed?");
  expect(body.thin).toBe(false);
  expect(body.answer).toStartWith("Reimbursements are paid with the next monthly salary.");
});
