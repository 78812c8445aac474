// A residents' association: its bylaws and a board meeting's minutes, titled by date. Asked over real HTTP;
// the pages are written by the test and answers are checked for what they should quote.
// Run by tests/answer/cases.test.ts (one server for every table).
import { titledByHeading } from "../../support/sources";
import type { AnswerTable } from "./table";

export const BYLAWS = `# Maple Court Residents' Association bylaws

## Membership

Every household at Maple Court is a member. Annual dues are 120 dollars per household, payable by 31 January.

## The board

The board has five members, elected at the annual general meeting for two-year terms.
The board meets on the first Tuesday of every month at 19:00 in the community room.
A quorum is three board members.

## Annual general meeting

The annual general meeting is held in April. Notice is sent to every household at least 21 days before.`;

export const MINUTES = `# Board meeting minutes, 3 November 2026

Present: Laura Kim (chair), Dev Patel (treasurer), Rosa Jiménez (secretary).

## Finances

Dev Patel reported a balance of 18,450 dollars. The roof repair on block B cost 6,200 dollars, under the 7,500 budgeted.

## Decisions

- The bike shed will get a new lock; Laura Kim will order it.`;

export const RESIDENTS_ASSOCIATION_TABLE: AnswerTable = {
  brain: "Maple Court",
  pages: titledByHeading(BYLAWS, MINUTES),
  cases: [
    // Was the minutes' attendance and finances: their title names "board" and "meeting" and holds a date, so
    // every note of the page looked like a complete, dated answer, and the title made them all one "section".
    { name: "'when does the board meet?' is the sentence saying so, before the notes of a page titled by a board meeting", question: "When does the board meet?", excludes: ["18,450 dollars"], startsWith: "The board meets on the first Tuesday of every month at 19:00", thin: false },
    // Was thin: "agm" was the heaviest term and no page wrote it.
    { name: "'the AGM' is the annual general meeting the bylaws name in full", question: "How much notice is given for the AGM?", contains: ["Notice is sent to every household at least 21 days before."], excludes: ["don't mention"], thin: false },
  ],
};
