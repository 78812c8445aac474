// A restaurant's staff rota beside its kitchen handbook. Asked over real HTTP; the pages are written by the test
// and answers are checked for what they should quote.
import { expect, test } from "bun:test";
import { brainOf } from "../support/sources";

const ask = brainOf("Trattoria", {
  "Kitchen handbook": `# Kitchen handbook

## Opening hours

Tuesday to Saturday 12:00–22:30. Sunday 12:00–16:00 (lunch only). Closed on Mondays.

## Food safety

Cooked rice is kept for at most 24 hours, chilled within one hour of cooking.

## Allergens

| Dish | Contains |
|---|---|
| Pesto linguine | nuts, dairy |
| Tiramisu | eggs, dairy, gluten |
| Arancini | gluten, dairy |
| Grilled sea bass | fish |`,
  "Staff rota, week 48": `# Staff rota, week 48

| Day | Chef | Front of house |
|---|---|---|
| Thursday | Marco | Sam |
| Friday | Aisha | Giulia |
| Saturday | Marco, Aisha | Giulia, Sam |
| Sunday | Aisha | Sam |`,
});

test("a sentence without the kind of answer asked, holding no more of the question, does not join the one with it", async () => {
  // Was followed by the opening hours' "Tuesday to Saturday 12:00–22:30.", which names no one.
  const body = await ask("Who is working on Saturday?");
  expect(body.answer).toContain("Day: Saturday; Chef: Marco, Aisha; Front of house: Giulia, Sam.");
  expect(body.answer).not.toContain("12:00–22:30");
});

test("the opening hours still answer when they are asked for", async () => {
  const body = await ask("What time do we open on Saturday?");
  expect(body.answer).toContain("Tuesday to Saturday 12:00–22:30.");
});

test("'which dishes are gluten-free' is the rows of the allergen table that never say gluten", async () => {
  // Was the two rows that contain gluten.
  const body = await ask("Which dishes are gluten-free?");
  expect(body.answer).toStartWith("- Pesto linguine\n- Grilled sea bass");
  expect(body.answer).not.toContain("Tiramisu");
  const eggs = await ask("Which dishes don't contain eggs?");
  expect(eggs.answer).toStartWith("- Pesto linguine\n- Arancini\n- Grilled sea bass");
  // What they contain is still the rows that say it.
  const nuts = await ask("Which dishes contain nuts?");
  expect(nuts.answer).toContain("Dish: Pesto linguine; Contains: nuts, dairy.");
  expect(nuts.answer).not.toContain("Grilled sea bass");
});

test("'how many' of the rows the question singles out counts those rows", async () => {
  // Was her three rows, uncounted.
  const body = await ask("How many days does Aisha work?");
  expect(body.answer).toStartWith("3:\n- Friday\n- Saturday\n- Sunday");
});
