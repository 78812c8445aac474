// An allotment society's growing guide: when to sow, water and plant, beside the site's rules. Asked over real
// HTTP; the pages are written by the test and answers are checked for what they should quote.
// Run by tests/answer/cases.test.ts (one server for every table).
import type { AnswerTable } from "./table";

export const GARDEN_TABLE: AnswerTable = {
  brain: "Garden",
  pages: {
  Watering: `# Watering

Water in the morning, at the base of the plant, not on the leaves. Most vegetables need about 2.5 cm of water a week; in a heatwave, water containers every day.

Tomatoes split if watering is irregular: keep the soil evenly moist.`,
  "Allotment rules": "# Allotment rules\n\nHosepipes are not allowed; use the water troughs. The annual rent of £48 is due on 1 October.",
},
  cases: [
    // Was "Most vegetables need about 2.5 cm of water a week …" alone: "in the morning" was no time.
    { name: "'when' is answered by a time of day as by a date: 'in the morning'", question: "When should I water?", startsWith: "Water in the morning, at the base of the plant" },
  ],
};
