// A sentence's stems are looked for one asked stem at a time (StemsOf) instead of stemming every word: the
// answer must be exactly stemSet's, for every stem a text holds and for stems it does not, whatever the
// words (irregular verbs, number words, units, -ies/-our/doubled consonants, diacritics, capitals, digits, dotted numbers,
// CJK, words inside words).
import { expect, test } from "bun:test";
import { stem, stemSet, StemsOf } from "../../src/modules/answer/sentences";
import { mulberry32 } from "../support/random";

const VOCABULARY = (
  "decisions decided conclusion expansion version tension vision " +
  "attendees attended employee employed committee committed trainee guarantee coffee degrees " +
  "found find finding founder sang sing singing sung countries country colours colour colored honours contour " +
  "running run runs ran racing race raced voices voiced eleven 11 twelve 2.4 1.5.0 4.2 127.0.0.1 metre metres meters m km kilometres " +
  "feet foot teeth children child men women was were been being is are naïve café Café İstanbul Straße ÉCOLE " +
  "rollback roll back horseshoes shoes horses keepers keeper rowed rescued crew Oriel telescope reflector " +
  "hour hours flour tour tours detour glasses glass boxes box wishes wish buzzes passes pass bus buses " +
  "berths berth assigns assigned harbor harbour master masters mastered a I x ab abc abcd e2e 3d 1990s " +
  "望远镜 東京 rain-proof re-entry o'clock don't it's well-known"
).split(" ");

function randomText(random: () => number): string {
  const words = Array.from({ length: 3 + Math.floor(random() * 25) }, () => VOCABULARY[Math.floor(random() * VOCABULARY.length)]!);
  const glue = [" ", " ", " ", ", ", "-", "", ". ", " (", ") "];
  return words.map((w, i) => (i === 0 ? w : glue[Math.floor(random() * glue.length)]! + w)).join("");
}

test("StemsOf answers exactly as stemSet, for stems held and not held", () => {
  const random = mulberry32(11);
  const asked = [...new Set(VOCABULARY.flatMap((w) => [...stemSet(w)]))];
  let checked = 0;
  for (let i = 0; i < 3000; i++) {
    const text = randomText(random);
    const eager = stemSet(text);
    const lazy = new StemsOf(text);
    for (const s of [...eager, ...asked]) {
      if (lazy.has(s) !== eager.has(s)) throw new Error(`${JSON.stringify(text)}: ${s} ${eager.has(s)}`);
      checked++;
    }
  }
  expect(checked).toBeGreaterThan(100_000);
});

test("mapped words and words inside other words", () => {
  const lazy = new StemsOf("The keepers rowed out and FOUND eleven of the crew on a 2.4 metre reflector; a roundabout.");
  expect(lazy.has(stem("find"))).toBe(true); // found → find
  expect(lazy.has(stem("11"))).toBe(true); // eleven → 11
  expect(lazy.has(stem("meters"))).toBe(true);
  expect(lazy.has(stem("keeper"))).toBe(true);
  expect(lazy.has(stem("about"))).toBe(false); // inside "roundabout", not a word of its own
  expect(lazy.has(stem("round"))).toBe(false);
  expect(new StemsOf("東京の望远镜").has([...stemSet("望远镜")][0]!)).toBe(true);
});
