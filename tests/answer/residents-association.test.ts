// A residents' association: its bylaws and a board meeting's minutes, titled by date. Asked over real HTTP;
// the pages are written by the test and answers are checked for what they should quote.
// Its questions asked of the pages are a table: tests/answer/cases/residents-association.ts.
import { expect, test } from "bun:test";
import { holdsAnswerType } from "../../src/modules/answer/answer-type";
import { titledByHeading } from "../support/sources";

test("an amount's thousands are no year, and a price is no time of day", () => {
  const none = new Set<string>();
  expect(holdsAnswerType("Dev Patel reported a balance of 18,450 dollars.", "time", none)).toBe(false);
  expect(holdsAnswerType("The repair cost 6,200 dollars, under the 7,500 budgeted.", "time", none)).toBe(false);
  expect(holdsAnswerType("The fence was built in 1998.", "time", none)).toBe(true);
  expect(holdsAnswerType("Founded 10,000 BC.", "time", none)).toBe(true);
  // Nor is a price's "7.00" a time of day, written with its currency before or after.
  expect(holdsAnswerType("Soup of the day: £7.00", "time", none)).toBe(false);
  expect(holdsAnswerType("Mileage is paid at 0.30 euros per kilometre.", "time", none)).toBe(false);
  expect(holdsAnswerType("The bus leaves at 7.30 from the square.", "time", none)).toBe(true);
});

