// A restaurant's staff rota beside its kitchen handbook. The pages are written by the test
// and answers are checked for what they should quote.
// Run by tests/answer/cases.test.ts (one server for every table).
import type { AnswerTable } from "./table";

export const RESTAURANT_TABLE: AnswerTable = {
  brain: "Trattoria",
  pages: {
  "Kitchen handbook": `# Kitchen handbook

## Opening hours

Tuesday to Saturday 12:00–22:30. Sunday 12:00–16:00 (lunch only). Closed on Mondays.

## Food safety

Cooked rice is kept for at most 24 hours, chilled within one hour of cooking.

## Allergens

| Dish | Contains |
|---|---|
| Pesto linguine | nuts, dairy |
| Tiramisu | eggs, dairy, gluten |
| Arancini | gluten, dairy |
| Grilled sea bass | fish |`,
  "Staff rota, week 48": `# Staff rota, week 48

| Day | Chef | Front of house |
|---|---|---|
| Thursday | Marco | Sam |
| Friday | Aisha | Giulia |
| Saturday | Marco, Aisha | Giulia, Sam |
| Sunday | Aisha | Sam |`,
},
  cases: [
    // Was followed by the opening hours' "Tuesday to Saturday 12:00–22:30.", which names no one.
    { name: "a sentence without the kind of answer asked, holding no more of the question, does not join the one with it", question: "Who is working on Saturday?", contains: ["Day: Saturday; Chef: Marco, Aisha; Front of house: Giulia, Sam."], excludes: ["12:00–22:30"] },
    { name: "the opening hours still answer when they are asked for", question: "What time do we open on Saturday?", contains: ["Tuesday to Saturday 12:00–22:30."] },
    // Was the two rows that contain gluten.
    { name: "'which dishes are gluten-free' is the rows of the allergen table that never say gluten · Which dishes are gluten-free?", question: "Which dishes are gluten-free?", excludes: ["Tiramisu"], startsWith: "- Pesto linguine\n- Grilled sea bass" },
    { name: "'which dishes are gluten-free' is the rows of the allergen table that never say gluten · Which dishes don't contain eggs?", question: "Which dishes don't contain eggs?", startsWith: "- Pesto linguine\n- Arancini\n- Grilled sea bass" },
    // What they contain is still the rows that say it.
    { name: "'which dishes are gluten-free' is the rows of the allergen table that never say gluten · Which dishes contain nuts?", question: "Which dishes contain nuts?", contains: ["Dish: Pesto linguine; Contains: nuts, dairy."], excludes: ["Grilled sea bass"] },
    // Was her three rows, uncounted.
    { name: "'how many' of the rows the question singles out counts those rows", question: "How many days does Aisha work?", startsWith: "3:\n- Friday\n- Saturday\n- Sunday" },
  ],
};
