// A residents' association: its bylaws and a board meeting's minutes, titled by date. Asked over real HTTP;
// the pages are written by the test and answers are checked for what they should quote.
import { expect, test } from "bun:test";
import { holdsAnswerType } from "../../src/modules/answer/answer-type";
import { brainOf, titledByHeading } from "../support/sources";

const BYLAWS = `# Maple Court Residents' Association bylaws

## Membership

Every household at Maple Court is a member. Annual dues are 120 dollars per household, payable by 31 January.

## The board

The board has five members, elected at the annual general meeting for two-year terms.
The board meets on the first Tuesday of every month at 19:00 in the community room.
A quorum is three board members.

## Annual general meeting

The annual general meeting is held in April. Notice is sent to every household at least 21 days before.`;

const MINUTES = `# Board meeting minutes, 3 November 2026

Present: Laura Kim (chair), Dev Patel (treasurer), Rosa Jiménez (secretary).

## Finances

Dev Patel reported a balance of 18,450 dollars. The roof repair on block B cost 6,200 dollars, under the 7,500 budgeted.

## Decisions

- The bike shed will get a new lock; Laura Kim will order it.`;

const ask = brainOf("Maple Court", titledByHeading(BYLAWS, MINUTES));

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

test("'when does the board meet?' is the sentence saying so, before the notes of a page titled by a board meeting", async () => {
  // Was the minutes' attendance and finances: their title names "board" and "meeting" and holds a date, so
  // every note of the page looked like a complete, dated answer, and the title made them all one "section".
  const body = await ask("When does the board meet?");
  expect(body.thin).toBe(false);
  expect(body.answer.startsWith("The board meets on the first Tuesday of every month at 19:00")).toBe(true);
  expect(body.answer).not.toContain("18,450 dollars");
});

test("'the AGM' is the annual general meeting the bylaws name in full", async () => {
  // Was thin: "agm" was the heaviest term and no page wrote it.
  const body = await ask("How much notice is given for the AGM?");
  expect(body.thin).toBe(false);
  expect(body.answer).toContain("Notice is sent to every household at least 21 days before.");
  expect(body.answer).not.toContain("don't mention");
});
