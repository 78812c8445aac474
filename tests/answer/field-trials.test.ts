// A field trial's report with a results table keyed by letters. Asked over real HTTP; the page is written by
// the test and answers are checked for what they should quote.
import { expect, test } from "bun:test";
import { brainOf, titledByHeading } from "../support/sources";

const TRIAL = `# Experiment 14: fertilizer trial on wheat

## Results

| Group | Nitrogen (kg/ha) | Yield (t/ha) | Protein (%) |
|---|---|---|---|
| A | 0 | 4.1 | 9.8 |
| B | 60 | 6.3 | 11.2 |
| C | 120 | 7.9 | 12.5 |
| D | 180 | 8.1 | 12.9 |

Lodging was seen in six of the ten group D plots after the July storm.`;

const ask = brainOf("Field trials", titledByHeading(TRIAL));

test("a capital letter naming one of a kind is a term, said only by that capital", async () => {
  // Were the rows A, B and C in order: "group B" and "group C" named every row alike (a lone letter weighed
  // nothing, left over from "grey's").
  const protein = await ask("How much protein did group B have?");
  expect(protein.answer).toContain("Group: B; Nitrogen (kg/ha): 60");
  expect(protein.answer).not.toContain("Group: A;");
  const yieldC = await ask("What was the yield of group C?");
  expect(yieldC.answer).toContain("Group: C; Nitrogen (kg/ha): 120");
  expect(yieldC.answer).not.toContain("Group: A;");
  expect(yieldC.answer).not.toContain("Group: B;");
});
