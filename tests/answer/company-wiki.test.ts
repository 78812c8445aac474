// A company's wiki: its history, products and an offices table. Asked over real HTTP; the pages are written
// by the test and answers are checked for what they should quote.
import { expect, test } from "bun:test";
import { brainOf, titledByHeading } from "../support/sources";

const HISTORY = `# Company history

The first product, Harbor, was a dashboard for port logistics companies. It launched in 2015 with three customers.
Harbor was retired in 2020 and replaced by Beacon, a forecasting platform for shipping and retail.`;

const PRODUCTS = `# Products

## Beacon

Beacon forecasts demand for shipping and retail companies.

## Retired products

Harbor, the first product, was retired in 2020. Its customers were moved to Beacon at no extra cost.`;

const OFFICES = `# Offices

| Office | Address | Employees | Opened |
|---|---|---|---|
| Portland (headquarters) | 1200 NW Naito Parkway | 180 | 2014 |
| Berlin | Torstraße 140 | 95 | 2022 |
| Singapore | 1 George Street | 45 | 2023 |`;

const ask = brainOf("Tidewater", titledByHeading(HISTORY, PRODUCTS, OFFICES));

test("a sentence opening with a pronoun is about what the sentence before it names", async () => {
  // Was three sentences naming Harbor: "Its customers were moved to Beacon" named no Harbor of its own.
  const body = await ask("What happened to Harbor customers?");
  expect(body.answer).toContain("Its customers were moved to Beacon at no extra cost.");
});

test("an office is as large as its people, and 'most recently' asks for the newest", async () => {
  // Both were the table's rows in order, or thin: "largest" compared no "Employees" column, and "most
  // recently" was no superlative.
  const largest = await ask("Which office is the largest?");
  expect(largest.answer).toContain("Office: Portland (headquarters)");
  expect(largest.answer).not.toContain("Office: Berlin");
  const smallest = await ask("Which is the smallest office?");
  expect(smallest.answer).toContain("Office: Singapore");
  expect(smallest.answer).not.toContain("Office: Portland");
  const newest = await ask("Which office opened most recently?");
  expect(newest.thin).toBe(false);
  expect(newest.answer).toContain("Office: Singapore");
  expect(newest.answer).not.toContain("Office: Berlin");
});

const accounts = brainOf("Accounts", {
  "Globex Retail": "Globex Retail runs 85 garden centres in the UK. Customer since January 2023, Growth plan, 40 seats, £18,000 a year. Globex uses the Shopify connector for their online store.",
});

test("'what currency' is answered by an amount of money", async () => {
  // Was the garden centres and the Shopify connector: no sentence said "currency".
  const body = await accounts("What currency does Globex pay in?");
  expect(body.answer).toContain("£18,000 a year");
});
