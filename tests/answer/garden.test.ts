// An allotment society's growing guide: when to sow, water and plant, beside the site's rules. Asked over real
// HTTP; the pages are written by the test and answers are checked for what they should quote.
// Its questions asked of the pages are a table: tests/answer/cases/garden.ts.
import { expect, test } from "bun:test";
import { holdsAnswerType } from "../../src/modules/answer/answer-type";

test("times of day say when; the words alone, or a morning's name, do not", () => {
  const when = (text: string) => holdsAnswerType(text, "time", new Set());
  expect(when("Water in the morning, at the base of the plant.")).toBe(true);
  expect(when("Feed the hens each evening.")).toBe(true);
  expect(when("The gates are locked at dusk.")).toBe(true);
  expect(when("Good morning, and welcome to the plot.")).toBe(false);
  expect(when("The Morning Star is a newspaper.")).toBe(false);
  expect(when("Evening primrose grows by the shed.")).toBe(false);
});
