// A course's syllabus and schedule, as teachers write them: a course code in every title, a week-by-week
// table. Asked over real HTTP; the pages are written by the test and answers are checked for what they
// should quote.
import { expect, test } from "bun:test";
import { holdsAnswerType } from "../../src/modules/answer/answer-type";
import { stem } from "../../src/modules/answer/sentences";
import { brainOf, titledByHeading } from "../support/sources";

const SYLLABUS = `# CS 241: Data Structures syllabus (Spring 2027)

Instructor: Dr. Amara Osei (office: Gates 314).
Teaching assistants: Felix Brandt and Lucía Romero.

Lectures are on Mondays and Wednesdays in room B12. Labs are on Fridays.

| Component | Weight |
|---|---|
| Labs | 15% |
| Final project | 35% |`;

const PROJECT = `# Final project

Teams of two or three build a data structure library in Java or Python.

The final submission is due on the Friday of week 10 and includes the code, a test suite and a report.`;

const SCHEDULE = `# CS 241 schedule

| Week | Topic | Due |
|---|---|---|
| 2 | Stacks and queues | Problem set 1 |
| 3 | Hash tables | Problem set 2 |
| 8 | Shortest paths | Project proposal |

Problem sets are due on Sundays at 23:59 through Gradescope.`;

const ask = brainOf("CS 241", titledByHeading(SYLLABUS, SCHEDULE, PROJECT));

test("a course code's number is no year: 'CS 241' does not date every sentence of its pages", async () => {
  // Was "CS 241 schedule: Week: 2; … Problem set 1. Week: 3; …": the title's "241" read as a year, so every
  // row held a time and came framed by the title.
  const body = await ask("When are problem sets due?");
  expect(body.answer).toContain("Problem sets are due on Sundays at 23:59 through Gradescope.");
  expect(body.answer).not.toContain("CS 241 schedule:");
  for (const code of ["CS 241", "Gates 314", "a Boeing 747"]) expect(holdsAnswerType(code, "time", new Set())).toBe(false);
  for (const year of ["Rome was sacked in 410.", "It was built in 1848.", "In 410 the city fell."]) expect(holdsAnswerType(year, "time", new Set())).toBe(true);
});

test("'TAs' are the teaching assistants, and the brain mentions them", async () => {
  // Was thin; then "No page of this brain mentions TAs" before the very page that names them.
  const body = await ask("Who are the TAs?");
  expect(body.thin).toBe(false);
  expect(body.answer).toContain("Teaching assistants: Felix Brandt and Lucía Romero.");
  expect(body.answer).not.toContain("No page of this brain mentions");
});

test("'submit' is what a submission is, as 'discuss' a discussion: '-ssion' nouns stem as their verbs", async () => {
  const body = await ask("What do I submit for the final project?");
  expect(body.answer).toContain("The final submission is due on the Friday of week 10 and includes the code");
  for (const [noun, verb] of [["submission", "submit"], ["permission", "permit"], ["discussion", "discuss"], ["decision", "decide"]] as const)
    expect(stem(noun)).toBe(stem(verb));
  expect(stem("commission")).not.toBe(stem("commit"));
});

test("a page's title is no amount: 'How much do labs count?' is not framed by '… (Spring 2027)'", async () => {
  // Was "CS 241: Data Structures syllabus (Spring 2027): Labs are on Fridays.": the title's year read as the amount.
  const body = await ask("How much do labs count?");
  expect(body.answer).toContain("Component: Labs; Weight: 15%.");
  expect(body.answer).not.toContain("syllabus (Spring 2027):");
});
