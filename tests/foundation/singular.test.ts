// Singulars of English plurals, as concept keys and compound search terms use them ("white-flashe" was one).
import { expect, test } from "bun:test";
import { singular } from "../../src/lib/singular";

const CASES: [string, string][] = [
  ["flashes", "flash"], ["caches", "cache"], ["horses", "horse"], ["buses", "bus"], ["analyses", "analysis"],
  ["crises", "crisis"], ["hypotheses", "hypothesis"], ["boxes", "box"], ["churches", "church"], ["taxes", "tax"],
  ["quizzes", "quiz"], ["classes", "class"], ["wishes", "wish"], ["houses", "house"], ["courses", "course"],
  ["cases", "case"], ["databases", "database"], ["niches", "niche"], ["avalanches", "avalanche"], ["shoes", "shoe"],
  ["heroes", "hero"], ["potatoes", "potato"], ["bonuses", "bonus"], ["viruses", "virus"], ["campuses", "campus"],
  ["cities", "city"], ["towns", "town"], ["centers", "center"], ["photos", "photos"], ["glass", "glass"],
  ["status", "status"], ["analysis", "analysis"], ["bus", "bus"], ["notes", "note"], ["toes", "toe"], ["volcanoes", "volcano"], ["issues", "issue"], ["names", "name"], ["zorgflashes", "zorgflash"], ["blorpes", "blorpe"],
];

test.each(CASES)("singular(%p) is %p", (plural, one) => {
  expect(singular(plural)).toBe(one);
});
