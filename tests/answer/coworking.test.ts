// A coworking space's member guide beside its events table. Asked over real HTTP; the pages are written by the
// test and answers are checked for what they should quote.
import { expect, test } from "bun:test";
import { brainOf } from "../support/sources";
import { saysPlace } from "../../src/modules/answer/answer-type";

const ask = brainOf("Hive", {
  "Member guide": `# Hive Coworking member guide

Hive is open 24/7 for Resident members. Flex members can use the space Monday to Friday, 8:00 to 19:00.

## Getting here

Hive is at Rua das Flores 112, Porto. Bike parking is in the courtyard.`,
  "Events, December 2026": `# Events, December 2026

| Date | Event | Host |
|---|---|---|
| 10 December | Design critique night | Rui Costa |
| 17 December | Holiday party | Hive team |`,
});

test("'where is it' is its street address, alone", async () => {
  // Was also "Hive is open 24/7 …" and the party hosted by the Hive team.
  const body = await ask("Where is Hive?");
  expect(body.answer).toContain("Hive is at Rua das Flores 112, Porto.");
  expect(body.answer).not.toContain("24/7");
  expect(body.answer).not.toContain("Holiday party");
});

test("a street address says a place; an amount after 'is at' does not", () => {
  expect(saysPlace("Hive is at Rua das Flores 112, Porto.")).toBe(true);
  expect(saysPlace("The office is at 221 Baker Street.")).toBe(true);
  expect(saysPlace("The price is at least 5 euros.")).toBe(false);
  expect(saysPlace("The meeting is at Noon.")).toBe(false);
});
