// A course's syllabus and schedule, as teachers write them: a course code in every title, a week-by-week
// table. Run by tests/answer/cases.test.ts.
import type { AnswerTable } from "./table";

export const SYLLABUS_TABLE: AnswerTable = {
  brain: "CS 241",
  pages: {
    "CS 241: Data Structures syllabus (Spring 2027)": `# CS 241: Data Structures syllabus (Spring 2027)

Instructor: Dr. Amara Osei (office: Gates 314).
Teaching assistants: Felix Brandt and Lucía Romero.

Lectures are on Mondays and Wednesdays in room B12. Labs are on Fridays.

| Component | Weight |
|---|---|
| Labs | 15% |
| Final project | 35% |`,
    "CS 241 schedule": `# CS 241 schedule

| Week | Topic | Due |
|---|---|---|
| 2 | Stacks and queues | Problem set 1 |
| 3 | Hash tables | Problem set 2 |
| 8 | Shortest paths | Project proposal |

Problem sets are due on Sundays at 23:59 through Gradescope.`,
    "Final project": `# Final project

Teams of two or three build a data structure library in Java or Python.

The final submission is due on the Friday of week 10 and includes the code, a test suite and a report.`,
  },
  cases: [
    // Was "CS 241 schedule: Week: 2; … Problem set 1. Week: 3; …": the title's "241" read as a year, so every
    // row held a time and came framed by the title.
    { name: "a course code's number is no year: 'CS 241' does not date every sentence of its pages", question: "When are problem sets due?", contains: ["Problem sets are due on Sundays at 23:59 through Gradescope."], excludes: ["CS 241 schedule:"] },
    // Was thin; then "No page of this brain mentions TAs" before the very page that names them.
    { name: "'TAs' are the teaching assistants, and the brain mentions them", question: "Who are the TAs?", thin: false, contains: ["Teaching assistants: Felix Brandt and Lucía Romero."], excludes: ["No page of this brain mentions"] },
    { name: "'submit' is what a submission is: '-ssion' nouns stem as their verbs", question: "What do I submit for the final project?", contains: ["The final submission is due on the Friday of week 10 and includes the code"] },
    // Was "CS 241: Data Structures syllabus (Spring 2027): Labs are on Fridays.": the title's year read as the amount.
    { name: "a page's title is no amount: 'How much do labs count?' is not framed by '… (Spring 2027)'", question: "How much do labs count?", contains: ["Component: Labs; Weight: 15%."], excludes: ["syllabus (Spring 2027):"] },
  ],
};
