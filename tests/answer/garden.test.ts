// An allotment society's growing guide: when to sow, water and plant, beside the site's rules. Asked over real
// HTTP; the pages are written by the test and answers are checked for what they should quote.
import { expect, test } from "bun:test";
import { holdsAnswerType } from "../../src/modules/answer/answer-type";
import { brainOf } from "../support/sources";

const ask = brainOf("Garden", {
  Watering: `# Watering

Water in the morning, at the base of the plant, not on the leaves. Most vegetables need about 2.5 cm of water a week; in a heatwave, water containers every day.

Tomatoes split if watering is irregular: keep the soil evenly moist.`,
  "Allotment rules": "# Allotment rules\n\nHosepipes are not allowed; use the water troughs. The annual rent of £48 is due on 1 October.",
});

test("'when' is answered by a time of day as by a date: 'in the morning'", async () => {
  // Was "Most vegetables need about 2.5 cm of water a week …" alone: "in the morning" was no time.
  const when = await ask("When should I water?");
  expect(when.answer.startsWith("Water in the morning, at the base of the plant")).toBe(true);
});

test("times of day say when; the words alone, or a morning's name, do not", () => {
  const when = (text: string) => holdsAnswerType(text, "time", new Set());
  expect(when("Water in the morning, at the base of the plant.")).toBe(true);
  expect(when("Feed the hens each evening.")).toBe(true);
  expect(when("The gates are locked at dusk.")).toBe(true);
  expect(when("Good morning, and welcome to the plot.")).toBe(false);
  expect(when("The Morning Star is a newspaper.")).toBe(false);
  expect(when("Evening primrose grows by the shed.")).toBe(false);
});
