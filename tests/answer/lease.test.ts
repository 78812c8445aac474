// A residential lease and an appliance's manual. Asked over real HTTP; the pages are written by the test and
// answers are checked for what they should quote.
import { expect, test } from "bun:test";
import { brainOf, titledByHeading } from "../support/sources";

const LEASE = `# Residential lease: 14 Elm Street, Apartment 3B

## Term and rent

The lease runs from 1 September 2026 to 31 August 2027.
Rent is 1,850 dollars a month, due on the first day of each month.

## Repairs

Emergency repairs (no heat, a leak, no water) are handled within 24 hours; call 555-0177.

## Ending the lease

Either party must give 60 days' written notice before the end of the term.
If the tenants leave early, they owe rent until a new tenant moves in, up to two months.`;

const SPECS = `# Aero 3 espresso machine: setup

| Specification | Value |
|---|---|
| Pump pressure | 15 bar |
| Water tank | 1.8 litres |
| Weight | 6.2 kg |`;

const ask = brainOf("Lease", titledByHeading(LEASE, SPECS));

test("a span of dates says when it starts and when it ends; a phone number is no span", async () => {
  // Was "Either party must give 60 days' written notice before the end of the term." and the early-leaving
  // sentence: they say "end" and "lease" (the title), the span of dates says neither.
  const end = await ask("When does the lease end?");
  expect(end.answer.startsWith("The lease runs from 1 September 2026 to 31 August 2027.")).toBe(true);
  expect(end.answer).not.toContain("555-0177");
  const start = await ask("When does the lease start?");
  expect(start.answer.startsWith("The lease runs from 1 September 2026 to 31 August 2027.")).toBe(true);
});

test("'how much does it weigh?' is the Weight row", async () => {
  // Was thin-worded sentences of other pages: "weigh" and "weight" were two words.
  const body = await ask("How much does the Aero 3 weigh?");
  expect(body.answer).toContain("Specification: Weight; Value: 6.2 kg.");
});
