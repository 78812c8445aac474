// A recipe whose title names its main ingredient, with a tip asked as a question in its paragraph. Asked over
// real HTTP; the page is written by the test and answers are checked for what they should quote.
// Run by tests/answer/cases.test.ts (one server for every table).
import { titledByHeading } from "../../support/sources";
import type { AnswerTable } from "./table";

export const PANCAKES = `# Buttermilk pancakes

Serves 4 (about 12 pancakes). Ready in 25 minutes.

## Ingredients

- 250 g plain flour
- 500 ml buttermilk
- 2 eggs

## Method

Whisk the dry ingredients in one bowl and the buttermilk and eggs in another.
Pour the wet into the dry and stir until just combined; a few lumps are fine.

## Variations

For blueberry pancakes, drop a few berries onto each pancake right after pouring.
No buttermilk? Stir 1 tbsp of lemon juice into 500 ml of milk and leave it for 5 minutes.`;

export const RECIPES_TABLE: AnswerTable = {
  brain: "Recipes",
  pages: titledByHeading(PANCAKES),
  cases: [
    // Was "500 ml buttermilk" and the whisking: every sentence held "buttermilk" through the title, and the tip
    // answering "No buttermilk?" ranked with the servings.
    { name: "a sentence answering a question in its paragraph is about that question's words", question: "What can I use instead of buttermilk?", contains: ["Stir 1 tbsp of lemon juice into 500 ml of milk"] },
  ],
};
