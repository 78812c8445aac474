// Employee benefits: a health plans table with one row per cost and one column per plan, and time-off rules.
// The pages are written by the test and answers are checked for what they should quote.
// Run by tests/answer/cases.test.ts (one server for every table).
import { titledByHeading } from "../../support/sources";
import type { AnswerTable } from "./table";

export const HEALTH = `# Health insurance 2027

## Plans

| | Standard PPO | High-deductible HSA plan |
|---|---|---|
| Monthly premium (employee only) | $85 | $25 |
| Monthly premium (family) | $310 | $140 |
| Deductible (individual) | $500 | $2,000 |
| Deductible (family) | $1,000 | $4,000 |
| Primary care visit | $25 copay | 20% after deductible |
| Specialist visit | $50 copay | 20% after deductible |
| Emergency room | $250 copay | 20% after deductible |

Brightwater puts $1,000 a year into the HSA of every employee on the high-deductible plan ($2,000 for families).

## Who is covered

Coverage starts on the first day of the month after your start date.
If you have a qualifying life event, such as a birth, marriage or losing other coverage, you can change plans within 30 days.`;

export const BENEFITS_TABLE: AnswerTable = {
  brain: "Benefits",
  pages: titledByHeading(HEALTH),
  cases: [
    // Was the two premium rows and the first deductible row: "Standard PPO" and "High-deductible" are headers
    // of every row, so all rows scored alike and the first three were quoted.
    { name: "a row whose cells name the question, not every row under headers that name it · What is the deductible on the PPO?", question: "What is the deductible on the PPO?", contains: ["Deductible (individual); Standard PPO: $500", "Deductible (family); Standard PPO: $1,000"], excludes: ["Monthly premium"] },
    // Another row holding a lighter word of the question ("visit") is no part of the answer, nor the next row.
    { name: "a row whose cells name the question, not every row under headers that name it · How much is an emergency room visit on the PPO?", question: "How much is an emergency room visit on the PPO?", contains: ["Emergency room; Standard PPO: $250 copay"], excludes: ["Primary care visit", "Specialist visit"] },
    // A row chosen after a sentence: a row of its table holding less of the question is another record.
    { name: "a row whose cells name the question, not every row under headers that name it · What is the family deductible on the HSA plan?", question: "What is the family deductible on the HSA plan?", contains: ["Deductible (family)"], excludes: ["Monthly premium (family)"] },
    // Was the primary-care and specialist rows ("after deductible", "plan") before the life-event sentence.
    { name: "'getting married' is a marriage", question: "Can I change plans after getting married?", contains: ["If you have a qualifying life event, such as a birth, marriage"], excludes: ["Primary care visit"] },
  ],
};
