// A product's spec sheet and FAQ, as shops write them: a table of models, a FAQ whose answers open "Yes." or
// "No.". Asked over real HTTP; the pages are written by the test and answers are checked for what they
// should quote.
import { expect, test } from "bun:test";
import { brainOf, titledByHeading } from "../support/sources";

const LINEUP = `# E-bike lineup

| Model | Price | Weight | Top speed |
|---|---|---|---|
| Commuter C1 | €1,899 | 21 kg | 25 km/h |
| Fold F1 | €1,499 | 17 kg | 25 km/h |

The Fold F1 folds in 15 seconds and fits in a car boot.`;

const FAQ = `# Frequently asked questions

## Can I ride in the rain?
Yes. All models are rated IPX5.

## Can I increase the top speed?
No. E-bikes in the EU are limited to 25 km/h assistance by law; tuning voids the warranty.`;

const ask = brainOf("Voltway", titledByHeading(LINEUP, FAQ));

test("a FAQ's bare 'No.' is quoted for its own question, not for another the answer serves", async () => {
  const own = await ask("Can I increase the top speed?");
  expect(own.answer).toContain("No. E-bikes in the EU are limited to 25 km/h assistance by law");
  // Was "No. E-bikes in the EU …": the FAQ's reply read as the answer to a question that asks no yes or no.
  const other = await ask("What is the top speed?");
  expect(other.thin).toBe(false);
  expect(other.answer).toContain("25 km/h");
  expect(other.answer).not.toMatch(/(?:^|\s)No\.\s/);
});

test("'how fast does it fold' asks how long it takes: 'folds in 15 seconds' answers", async () => {
  // "How fast" read only speeds: the sentence saying how long folding takes held no "kind of answer".
  const body = await ask("How fast does the Fold F1 fold?");
  expect(body.answer).toContain("The Fold F1 folds in 15 seconds");
});
