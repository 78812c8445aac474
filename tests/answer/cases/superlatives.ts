// Superlatives over tables ("Which plan is cheapest?"): no sentence says "cheapest"; the row holding the
// extreme of the column the superlative compares answers it (src/modules/answer/superlative.ts).
// Run by tests/answer/cases.test.ts.
import type { AnswerTable } from "./table";

export const SUPERLATIVES_TABLE: AnswerTable = {
  brain: "Company",
  pages: {
  Pricing: `# Pricing

| Plan | Monthly price | Seats | Support |
|---|---|---|---|
| Growth | €79 | 15 | Email and chat |
| Starter | €19 | 3 | Email |
| Enterprise | Custom | Unlimited | Dedicated manager |

Prices exclude VAT. Annual plans are paid up front.`,
  "Office locations": `# Office locations

| Office | Opened | Desks |
|---|---|---|
| Lisbon | 2019 | 40 |
| Berlin | 2015 | 1,200 |
| Nairobi | March 2023 | 25 |`,
  Travel: `# Travel

| Item | Daily limit |
|---|---|
| Hotel in Berlin | 150 EUR |
| Hotel in London | 220 EUR |
| Meals | 45 EUR |`,
  Incidents: `# Incidents

| Date | Duration | Cause |
|---|---|---|
| 12 February | 45 minutes | Expired TLS certificate |
| 3 May | 2 hours | Queue backlog |
| 28 August | 15 minutes | Misconfigured login |`,
  Pipeline: `# Sales pipeline

| Account | Stage | Value per year | Close date |
|---|---|---|---|
| Stark Freight | Negotiation | $54,000 | 2025-12-20 |
| Umbrella Health | Proposal | $120,000 | 2026-01-31 |
| Initech | Trial | $36,000 | 2025-12-15 |`,
  "E-bike lineup": `# E-bike lineup

| Model | Price | Weight | Battery | Range |
|---|---|---|---|---|
| Commuter C1 | €1,899 | 26 kg | 700 Wh | 80 km |
| Trail T2 | €3,299 | 24 kg | 625 Wh | 110 km |
| Fold F1 | €1,499 | 17 kg | 375 Wh | 55 km |`,
  "Product sync": `# Product sync, 17 March 2026

Annual plans get a 15% discount instead of 10%. Dev Patel joins the billing team.`,
  },
  cases: [
    { name: "'cheapest' is the row of the lowest price, wherever it sits in the table", question: "Which plan is cheapest?", thin: false, contains: ["Plan: Starter; Monthly price: €19"], excludes: ["Growth"], cites: ["pricing"] },
    { name: "'the most seats': the noun names the column; 'Unlimited' is the most", question: "Which plan has the most seats?", thin: false, contains: ["Plan: Enterprise"], excludes: ["Starter"] },
    { name: "'the fewest seats'", question: "Which plan has the fewest seats?", contains: ["Plan: Starter"], excludes: ["Enterprise"] },
    { name: "a largest quotes the row whose cell is no number beside the largest number", question: "Which plan is the most expensive?", thin: false, contains: ["Plan: Growth; Monthly price: €79", "Plan: Enterprise; Monthly price: Custom"], excludes: ["Plan: Starter"] },
    { name: "numbers with thousands separators compare as values", question: "Which office has the most desks?", contains: ["Office: Berlin"] },
    { name: "dates compare as values: the oldest", question: "Which is the oldest office?", thin: false, contains: ["Office: Berlin"] },
    { name: "dates compare as values: the newest", question: "Which is the newest office?", contains: ["Office: Nairobi"] },
    { name: "a price asked of a table whose header names none: the column of amounts of money", question: "Which city has the most expensive hotel limit?", thin: false, contains: ["Item: Hotel in London; Daily limit: 220 EUR"], excludes: ["Berlin"] },
    { name: "the cheapest amount of money", question: "What is the cheapest daily limit?", contains: ["Item: Meals; Daily limit: 45 EUR"] },
    { name: "durations compare in one unit: two hours is longer than 45 minutes", question: "Which incident lasted longest?", contains: ["Duration: 2 hours"], excludes: ["45 minutes"] },
    { name: "durations compare in one unit: the shortest", question: "What was the shortest incident?", contains: ["Duration: 15 minutes"], excludes: ["2 hours"] },
    { name: "'the biggest' account is the one of the largest value", question: "Which account is the biggest in the pipeline?", thin: false, startsWith: "Account: Umbrella Health;", excludes: ["Initech"] },
    { name: "'closes first' is the one of the earliest date", question: "Which account closes first?", thin: false, startsWith: "Account: Initech;" },
    { name: "a superlative no table compares is thin when nothing says it", question: "Which office has the most parking spaces?", thin: true },
    { name: "a superlative by a column no table has is thin", question: "Which office is the largest by revenue?", thin: true },
    // Was thin: no column is called length, duration or time.
    { name: "'the longest range' is the Range column's, though 'longest' names lengths and times", question: "Which e-bike has the longest range?", thin: false, contains: ["Model: Trail T2;"], excludes: ["Model: Fold F1;"] },
    // Was the Trail T2, the most expensive: with no size or capacity column, "biggest" compared prices.
    { name: "'the biggest battery' is the Battery column's, not the priciest model's", question: "Which e-bike has the biggest battery?", contains: ["Model: Commuter C1;"], excludes: ["Model: Trail T2;"] },
    // "Trail T2" holds a number, but a name is no value: "Model" is not the column compared.
    { name: "a noun naming a column of names is not compared: 'the heaviest model' is by weight", question: "Which is the heaviest model?", contains: ["Model: Commuter C1;"], excludes: ["Model: Trail T2;"] },
  ],
};
