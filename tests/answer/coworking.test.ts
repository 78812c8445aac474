// A coworking space's member guide beside its events table. Asked over real HTTP; the pages are written by the
// test and answers are checked for what they should quote.
// Its questions asked of the pages are a table: tests/answer/cases/coworking.ts.
import { expect, test } from "bun:test";
import { saysPlace } from "../../src/modules/answer/answer-type";

test("a street address says a place; an amount after 'is at' does not", () => {
  expect(saysPlace("Hive is at Rua das Flores 112, Porto.")).toBe(true);
  expect(saysPlace("The office is at 221 Baker Street.")).toBe(true);
  expect(saysPlace("The price is at least 5 euros.")).toBe(false);
  expect(saysPlace("The meeting is at Noon.")).toBe(false);
});
