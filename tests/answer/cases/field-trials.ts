// A field trial's report with a results table keyed by letters. The page is written by
// the test and answers are checked for what they should quote.
// Run by tests/answer/cases.test.ts (one server for every table).
import { titledByHeading } from "../../support/sources";
import type { AnswerTable } from "./table";

export const TRIAL = `# Experiment 14: fertilizer trial on wheat

## Results

| Group | Nitrogen (kg/ha) | Yield (t/ha) | Protein (%) |
|---|---|---|---|
| A | 0 | 4.1 | 9.8 |
| B | 60 | 6.3 | 11.2 |
| C | 120 | 7.9 | 12.5 |
| D | 180 | 8.1 | 12.9 |

Lodging was seen in six of the ten group D plots after the July storm.`;

export const FIELD_TRIALS_TABLE: AnswerTable = {
  brain: "Field trials",
  pages: titledByHeading(TRIAL),
  cases: [
    // Were the rows A, B and C in order: "group B" and "group C" named every row alike (a lone letter weighed
    // nothing, left over from "grey's").
    { name: "a capital letter naming one of a kind is a term, said only by that capital · How much protein did group B have?", question: "How much protein did group B have?", contains: ["Group: B; Nitrogen (kg/ha): 60"], excludes: ["Group: A;"] },
    { name: "a capital letter naming one of a kind is a term, said only by that capital · What was the yield of group C?", question: "What was the yield of group C?", contains: ["Group: C; Nitrogen (kg/ha): 120"], excludes: ["Group: A;", "Group: B;"] },
  ],
};
