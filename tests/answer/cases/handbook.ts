// A staff handbook, as employees ask it: "can I …", "when are … reimbursed?". The pages
// are written by the test and answers are checked for the sentences they should quote.
// Run by tests/answer/cases.test.ts (one server for every table).
import type { AnswerTable } from "./table";

export const EXPENSES = `# Expense policy

## Travel

Book flights and hotels through TravelDesk. Taxis are fine after 22:00 or when carrying equipment.

## Home office

Each employee has a one-time home-office budget of €500 for a desk, chair or monitor.

## Meals

Meals with clients are reimbursed up to €60 per person. Alcohol is not reimbursed.

## Submitting

Submit expenses in Spendly within 30 days. Reimbursements are paid with the next monthly salary.`;

export const REMOTE = `# Remote work

Core hours are 10:00 to 15:00 in your local time. Everyone may work from home up to three days a week.`;

export const HANDBOOK_TABLE: AnswerTable = {
  brain: "Handbook",
  pages: { "Expense policy": EXPENSES, "Remote work": REMOTE },
  cases: [
    { name: "'taxis' is the plural of taxi; a time's zeros match no other time; the next section's sentence is no neighbour", question: "Can I take a taxi home at 23:00?", excludes: ["Core hours", "home-office budget"], startsWith: "Taxis are fine after 22:00 or when carrying equipment.", thin: false },
    { name: "'reimbursements' says reimbursed: a -ment noun is its verb", question: "When are expenses reimbursed?", startsWith: "Reimbursements are paid with the next monthly salary.", thin: false },
  ],
};
