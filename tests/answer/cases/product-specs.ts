// A product's spec sheet and FAQ, as shops write them: a table of models, a FAQ whose answers open "Yes." or
// "No.". The pages are written by the test and answers are checked for what they
// should quote.
// Run by tests/answer/cases.test.ts (one server for every table).
import { titledByHeading } from "../../support/sources";
import type { AnswerTable } from "./table";

export const LINEUP = `# E-bike lineup

| Model | Price | Weight | Top speed |
|---|---|---|---|
| Commuter C1 | €1,899 | 21 kg | 25 km/h |
| Fold F1 | €1,499 | 17 kg | 25 km/h |

The Fold F1 folds in 15 seconds and fits in a car boot.`;

export const FAQ = `# Frequently asked questions

## Can I ride in the rain?
Yes. All models are rated IPX5.

## Can I increase the top speed?
No. E-bikes in the EU are limited to 25 km/h assistance by law; tuning voids the warranty.`;

export const PRODUCT_SPECS_TABLE: AnswerTable = {
  brain: "Voltway",
  pages: titledByHeading(LINEUP, FAQ),
  cases: [
    { name: "a FAQ's bare 'No.' is quoted for its own question, not for another the answer serves · Can I increase the top speed?", question: "Can I increase the top speed?", contains: ["No. E-bikes in the EU are limited to 25 km/h assistance by law"] },
    // Was "No. E-bikes in the EU …": the FAQ's reply read as the answer to a question that asks no yes or no.
    { name: "a FAQ's bare 'No.' is quoted for its own question, not for another the answer serves · What is the top speed?", question: "What is the top speed?", contains: ["25 km/h"], excludes: [/(?:^|\s)No\.\s/], thin: false },
    // "How fast" read only speeds: the sentence saying how long folding takes held no "kind of answer".
    { name: "'how fast does it fold' asks how long it takes: 'folds in 15 seconds' answers", question: "How fast does the Fold F1 fold?", contains: ["The Fold F1 folds in 15 seconds"] },
  ],
};
