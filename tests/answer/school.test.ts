// A primary school's policies and newsletter. Asked over real HTTP; the pages are written by the test and
// answers are checked for what they should quote.
import { expect, test } from "bun:test";
import { brainOf, titledByHeading } from "../support/sources";

const POLICIES = `# Oakridge Primary: key policies

## School day

The gates open at 8:40 and registration is at 8:50. The school day ends at 15:15.
Breakfast club runs from 7:45 in the hall and costs £3 a day.
After-school club runs until 18:00 and costs £12 a session; book through ParentPay.`;

const ask = brainOf("Oakridge", titledByHeading(POLICIES));

test("a start said in other words is the start, and an end is no start", async () => {
  // Was "The school day ends at 15:15." and the after-school club: "start" was said nowhere, and the end of
  // the day held "school" and a time.
  const start = await ask("What time does school start?");
  expect(start.answer.startsWith("The gates open at 8:40 and registration is at 8:50.")).toBe(true);
  expect(start.answer).not.toContain("After-school club");
  const finish = await ask("When does school finish?");
  expect(finish.answer.startsWith("The school day ends at 15:15.")).toBe(true);
});

const CAFE = `# Olive & Thyme café

| Day | Hours |
|---|---|
| Monday | Closed |
| Saturday | 9:00–17:00 |
| Sunday | 9:00–15:00 |`;

const cafe = brainOf("Café", titledByHeading(CAFE));

test("a span of clock times says when a day opens and closes", async () => {
  // Was the Monday row too: its "Closed" said "close", which the Saturday row did not.
  const body = await cafe("What time do you close on Saturday?");
  expect(body.answer).toContain("Day: Saturday; Hours: 9:00–17:00.");
  expect(body.answer).not.toContain("Monday");
});

const MENU = `# Menu

## Breakfast (until 11:30)

| Dish | Price |
|---|---|
| Shakshuka with sourdough | £9.50 |
| Full English | £12.00 |

## Lunch (from 12:00)

| Dish | Price |
|---|---|
| Halloumi salad | £10.50 |
| Chicken focaccia | £11.00 |`;

const menu = brainOf("Menu", titledByHeading(MENU));

test("a heading's 'from' or 'until' a time says when its section starts or ends; a price is no time", async () => {
  // Was thin: the rows' prices read as clock times ("£9.50"), and "start" was said nowhere.
  const lunch = await menu("When does lunch start?");
  expect(lunch.thin).toBe(false);
  expect(lunch.answer).toContain("Lunch (from 12:00): Dish: Halloumi salad");
  const breakfast = await menu("When does breakfast end?");
  expect(breakfast.answer).toContain("Breakfast (until 11:30): Dish: Shakshuka with sourdough");
});
