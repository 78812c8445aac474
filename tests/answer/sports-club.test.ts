// A football club's fixtures table beside its rules. Asked over real HTTP; the pages are written by the test and
// answers are checked for what they should quote.
import { expect, test } from "bun:test";
import { brainOf } from "../support/sources";

const ask = brainOf("Club", {
  "Fixtures 2026/27": `# Fixtures 2026/27

| Date | Opponent | Venue | Kick-off |
|---|---|---|---|
| Sat 5 Dec | Riverside Rovers | Home (Elm Park) | 14:00 |
| Sat 12 Dec | Millbrook Town | Away (Millbrook Rec) | 13:30 |`,
  "Club rules": "# Club rules\n\nPlayers must arrive 45 minutes before kick-off. Training is on Tuesdays and Thursdays at 19:00 on the Elm Park astro pitch.",
});

test("'when is the next away game?' is the fixtures' row: a date says which is next", async () => {
  // Was thin: no page says "next" (nor "game", but "away" is rare enough to find the row).
  const away = await ask("When is the next away game?");
  expect(away.thin).toBe(false);
  expect(away.answer).toContain("Opponent: Millbrook Town; Venue: Away (Millbrook Rec)");
  expect(away.answer).not.toContain("Riverside Rovers");
});
