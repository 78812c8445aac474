// A pricing page's table and a billing FAQ, as SaaS help centres write them. The pages are
// written by the test and answers are checked for what they should quote.
// Run by tests/answer/cases.test.ts (one server for every table).
import type { AnswerTable } from "./table";

export const PRICING_TABLE_TABLE: AnswerTable = {
  brain: "Pricing",
  pages: {
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
},
  cases: [
    // Was a refund sentence and two rows.
    { name: "'how many' of a table's rows is their count and their names", question: "How many plans are there?", startsWith: "3:\n- Starter\n- Team\n- Business" },
    // Was thin; the cheapest plan overall (Starter) is no answer.
    { name: "a comparative compares the rows the question names, not the whole table", question: "Which plan is cheaper, Team or Business?", contains: ["Plan: Team; Price per user: $15/month", "Plan: Business; Price per user: $25/month"], excludes: ["Starter"], thin: false },
    { name: "a superlative still compares every row", question: "Which plan is cheapest?", contains: ["Plan: Starter; Price per user: $8/month"] },
    // Was thin.
    { name: "'Amex' is American Express", question: "Can I pay with Amex?", contains: ["Visa, Mastercard, American Express and SEPA direct debit."], thin: false },
  ],
};
