// A football club's fixtures table beside its rules. The pages are written by the test and
// answers are checked for what they should quote.
// Run by tests/answer/cases.test.ts (one server for every table).
import type { AnswerTable } from "./table";

export const SPORTS_CLUB_TABLE: AnswerTable = {
  brain: "Club",
  pages: {
  "Fixtures 2026/27": `# Fixtures 2026/27

| Date | Opponent | Venue | Kick-off |
|---|---|---|---|
| Sat 5 Dec | Riverside Rovers | Home (Elm Park) | 14:00 |
| Sat 12 Dec | Millbrook Town | Away (Millbrook Rec) | 13:30 |`,
  "Club rules": "# Club rules\n\nPlayers must arrive 45 minutes before kick-off. Training is on Tuesdays and Thursdays at 19:00 on the Elm Park astro pitch.",
},
  cases: [
    // Was thin: no page says "next" (nor "game", but "away" is rare enough to find the row).
    { name: "'when is the next away game?' is the fixtures' row: a date says which is next", question: "When is the next away game?", contains: ["Opponent: Millbrook Town; Venue: Away (Millbrook Rec)"], excludes: ["Riverside Rovers"], thin: false },
  ],
};
