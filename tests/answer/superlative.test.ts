// Reading superlatives and table cells (src/modules/answer/superlative.ts). Superlatives asked over tables
// are a table of cases: tests/answer/cases/superlatives.ts.
import { describe, expect, test } from "bun:test";
import { cellValue, extremeRows, superlativeOf } from "../../src/modules/answer/superlative";
import { sentencesOf } from "../../src/modules/answer/sentences";

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
