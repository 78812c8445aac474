// "Which plan is cheapest?" over a pricing table: no sentence says "cheapest", so the extractive answer was
// thin. The row holding the extreme of the column the superlative compares answers it (superlative.ts).
// Pages are written by the test; answers are checked for the row, over real HTTP.
import { describe, expect, test } from "bun:test";
import { cellValue, extremeRows, superlativeOf } from "../../src/modules/answer/superlative";
import { sentencesOf } from "../../src/modules/answer/sentences";
import { brainOf } from "../support/sources";

const SOURCES: Record<string, string> = {
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
};

const ask = brainOf("Company", SOURCES);

describe("a superlative over a table", () => {
  test("'cheapest' is the row of the lowest price, wherever it sits in the table", async () => {
    const body = await ask("Which plan is cheapest?");
    expect(body.thin).toBe(false);
    expect(body.answer).toContain("Plan: Starter; Monthly price: €19");
    expect(body.answer).not.toContain("Growth");
    expect(body.citations.length).toBeGreaterThan(0);
  });

  test("'the most seats': the noun names the column; 'Unlimited' is the most", async () => {
    const body = await ask("Which plan has the most seats?");
    expect(body.thin).toBe(false);
    expect(body.answer).toContain("Plan: Enterprise");
    expect(body.answer).not.toContain("Starter");
    const fewest = await ask("Which plan has the fewest seats?");
    expect(fewest.answer).toContain("Plan: Starter");
    expect(fewest.answer).not.toContain("Enterprise");
  });

  test("a largest quotes the row whose cell is no number beside the largest number", async () => {
    const body = await ask("Which plan is the most expensive?");
    expect(body.thin).toBe(false);
    expect(body.answer).toContain("Plan: Growth; Monthly price: €79");
    expect(body.answer).toContain("Plan: Enterprise; Monthly price: Custom");
    expect(body.answer).not.toContain("Plan: Starter");
  });

  test("numbers with thousands separators and dates compare as values", async () => {
    const most = await ask("Which office has the most desks?");
    expect(most.answer).toContain("Office: Berlin");
    const oldest = await ask("Which is the oldest office?");
    expect(oldest.thin).toBe(false);
    expect(oldest.answer).toContain("Office: Berlin");
    const newest = await ask("Which is the newest office?");
    expect(newest.answer).toContain("Office: Nairobi");
  });

  test("a price asked of a table whose header names none: the column of amounts of money", async () => {
    const body = await ask("Which city has the most expensive hotel limit?");
    expect(body.thin).toBe(false);
    expect(body.answer).toContain("Item: Hotel in London; Daily limit: 220 EUR");
    expect(body.answer).not.toContain("Berlin");
    expect((await ask("What is the cheapest daily limit?")).answer).toContain("Item: Meals; Daily limit: 45 EUR");
  });

  test("durations compare in one unit: two hours is longer than 45 minutes", async () => {
    const longest = await ask("Which incident lasted longest?");
    expect(longest.answer).toContain("Duration: 2 hours");
    expect(longest.answer).not.toContain("45 minutes");
    const shortest = await ask("What was the shortest incident?");
    expect(shortest.answer).toContain("Duration: 15 minutes");
    expect(shortest.answer).not.toContain("2 hours");
  });

  test("'the biggest' account is the one of the largest value; 'closes first' the one of the earliest date", async () => {
    const biggest = await ask("Which account is the biggest in the pipeline?");
    expect(biggest.thin, biggest.answer).toBe(false);
    expect(biggest.answer.startsWith("Account: Umbrella Health;")).toBe(true);
    expect(biggest.answer).not.toContain("Initech");
    const first = await ask("Which account closes first?");
    expect(first.thin, first.answer).toBe(false);
    expect(first.answer.startsWith("Account: Initech;")).toBe(true);
  });

  test("a superlative no table compares is answered as before: thin when nothing says it", async () => {
    expect((await ask("Which office has the most parking spaces?")).thin).toBe(true);
    expect((await ask("Which office is the largest by revenue?")).thin).toBe(true);
  });
});

describe("an adjective's noun names the column compared", () => {
  test("'the longest range' is the Range column's, though 'longest' names lengths and times", async () => {
    // Was thin: no column is called length, duration or time.
    const body = await ask("Which e-bike has the longest range?");
    expect(body.thin).toBe(false);
    expect(body.answer).toContain("Model: Trail T2;");
    expect(body.answer).not.toContain("Model: Fold F1;");
  });

  test("'the biggest battery' is the Battery column's, not the priciest model's", async () => {
    // Was the Trail T2, the most expensive: with no size or capacity column, "biggest" compared prices.
    const body = await ask("Which e-bike has the biggest battery?");
    expect(body.answer).toContain("Model: Commuter C1;");
    expect(body.answer).not.toContain("Model: Trail T2;");
  });

  test("a noun naming a column of names is not compared: 'the heaviest model' is by weight", async () => {
    // "Trail T2" holds a number, but a name is no value: "Model" is not the column compared.
    const body = await ask("Which is the heaviest model?");
    expect(body.answer).toContain("Model: Commuter C1;");
    expect(body.answer).not.toContain("Model: Trail T2;");
  });
});

describe("reading superlatives and cells", () => {
  test("questions", () => {
    expect(superlativeOf("Which plan is cheapest?")?.direction).toBe("min");
    expect(superlativeOf("Which plan is the least expensive?")?.direction).toBe("min");
    expect(superlativeOf("Which plan is the most expensive?")?.direction).toBe("max");
    const seats = superlativeOf("Who has the highest number of seats?")!;
    expect(seats.direction).toBe("max");
    expect(seats.compares("Seats")).toBe(true);
    expect(seats.compares("Monthly price")).toBe(false);
    expect(superlativeOf("What is the refund policy?")).toBeNull();
    expect(superlativeOf("What do most of us use?")).toBeNull(); // "of" skipped, "us" too short to be the noun
  });

  test("cells", () => {
    expect(cellValue("€1,200/mo", "number")).toBe(1200);
    expect(cellValue("**Unlimited**", "number")).toBe(Infinity);
    expect(cellValue("`15`", "number")).toBe(15);
    expect(cellValue("Free", "number")).toBe(0);
    expect(cellValue("2 hours", "number")).toBeGreaterThan(cellValue("45 minutes", "number"));
    expect(cellValue("1.5 GB", "number")).toBeGreaterThan(cellValue("900 MB", "number"));
    expect(cellValue("10k", "number")).toBe(10_000);
    expect(cellValue("600 requests/min", "number")).toBe(600);
    expect(cellValue("Custom", "number")).toBeNaN();
    expect(cellValue("2015", "date")).toBeLessThan(cellValue("March 2023", "date"));
  });

  test("a table with one comparable row, or a dash for every other, has no extreme", () => {
    const rows = sentencesOf("| Plan | Price |\n|---|---|\n| Starter | €19 |\n| Growth | — |");
    expect(extremeRows(rows, superlativeOf("Which plan is cheapest?")!).size).toBe(0);
  });
});
