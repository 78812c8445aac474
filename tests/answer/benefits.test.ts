// Employee benefits: a health plans table with one row per cost and one column per plan, and time-off rules.
// Asked over real HTTP; the pages are written by the test and answers are checked for what they should quote.
import { expect, test } from "bun:test";
import { brainOf, titledByHeading } from "../support/sources";

const HEALTH = `# Health insurance 2027

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

const ask = brainOf("Benefits", titledByHeading(HEALTH));

test("a row whose cells name the question, not every row under headers that name it", async () => {
  // Was the two premium rows and the first deductible row: "Standard PPO" and "High-deductible" are headers
  // of every row, so all rows scored alike and the first three were quoted.
  const deductible = await ask("What is the deductible on the PPO?");
  expect(deductible.answer).toContain("Deductible (individual); Standard PPO: $500");
  expect(deductible.answer).toContain("Deductible (family); Standard PPO: $1,000");
  expect(deductible.answer).not.toContain("Monthly premium");
  // Another row holding a lighter word of the question ("visit") is no part of the answer, nor the next row.
  const room = await ask("How much is an emergency room visit on the PPO?");
  expect(room.answer).toContain("Emergency room; Standard PPO: $250 copay");
  expect(room.answer).not.toContain("Primary care visit");
  expect(room.answer).not.toContain("Specialist visit");
  // A row chosen after a sentence: a row of its table holding less of the question is another record.
  const family = await ask("What is the family deductible on the HSA plan?");
  expect(family.answer).toContain("Deductible (family)");
  expect(family.answer).not.toContain("Monthly premium (family)");
});

test("'getting married' is a marriage", async () => {
  // Was the primary-care and specialist rows ("after deductible", "plan") before the life-event sentence.
  const body = await ask("Can I change plans after getting married?");
  expect(body.answer).toContain("If you have a qualifying life event, such as a birth, marriage");
  expect(body.answer).not.toContain("Primary care visit");
});
