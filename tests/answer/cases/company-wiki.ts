// A company's wiki: its history, products and an offices table; and an accounts brain. Run by
// tests/answer/cases.test.ts.
import type { AnswerTable } from "./table";

export const COMPANY_WIKI_TABLE: AnswerTable = {
  brain: "Tidewater",
  pages: {
    "Company history": `# Company history

The first product, Harbor, was a dashboard for port logistics companies. It launched in 2015 with three customers.
Harbor was retired in 2020 and replaced by Beacon, a forecasting platform for shipping and retail.`,
    Products: `# Products

## Beacon

Beacon forecasts demand for shipping and retail companies.

## Retired products

Harbor, the first product, was retired in 2020. Its customers were moved to Beacon at no extra cost.`,
    Offices: `# Offices

| Office | Address | Employees | Opened |
|---|---|---|---|
| Portland (headquarters) | 1200 NW Naito Parkway | 180 | 2014 |
| Berlin | Torstraße 140 | 95 | 2022 |
| Singapore | 1 George Street | 45 | 2023 |`,
  },
  cases: [
    // Was three sentences naming Harbor: "Its customers were moved to Beacon" named no Harbor of its own.
    { name: "a sentence opening with a pronoun is about what the sentence before it names", question: "What happened to Harbor customers?", contains: ["Its customers were moved to Beacon at no extra cost."] },
    // Was the table's rows in order, or thin: "largest" compared no "Employees" column.
    { name: "an office is as large as its people", question: "Which office is the largest?", contains: ["Office: Portland (headquarters)"], excludes: ["Office: Berlin"] },
    { name: "the smallest office has the fewest people", question: "Which is the smallest office?", contains: ["Office: Singapore"], excludes: ["Office: Portland"] },
    // Was thin: "most recently" was no superlative.
    { name: "'most recently' asks for the newest", question: "Which office opened most recently?", thin: false, contains: ["Office: Singapore"], excludes: ["Office: Berlin"] },
  ],
};

export const ACCOUNTS_TABLE: AnswerTable = {
  brain: "Accounts",
  pages: {
    "Globex Retail": "Globex Retail runs 85 garden centres in the UK. Customer since January 2023, Growth plan, 40 seats, £18,000 a year. Globex uses the Shopify connector for their online store.",
  },
  cases: [
    // Was the garden centres and the Shopify connector: no sentence said "currency".
    { name: "'what currency' is answered by an amount of money", question: "What currency does Globex pay in?", contains: ["£18,000 a year"] },
  ],
};
