// Term weights for the evidence (background English rarity blended with the brain's IDF) and the matching
// of numbers and units in coverage.
import { describe, expect, test } from "bun:test";
import { backgroundWeight, termWeights } from "../../src/modules/answer/term-weights";
import { stem, stemSet } from "../../src/modules/answer/sentences";

const stats = (pageCount: number, df: Record<string, number>) => ({ pageCount, documentFrequency: new Map(Object.entries(df)) });

describe("term weights", () => {
  test("rarer English words weigh more; words the table lacks weigh the most", () => {
    expect(backgroundWeight("said")).toBeLessThan(backgroundWeight("crew"));
    expect(backgroundWeight("crew")).toBeLessThan(backgroundWeight("telescope"));
    expect(backgroundWeight("telescope")).toBeLessThan(backgroundWeight("oriel"));
  });

  test("a small brain's statistics barely move the weights; a large brain's dominate", () => {
    const terms = ["saved", "crew", "oriel"];
    // In a 10-page brain "saved" is on no page: its own IDF is the highest, the background keeps it modest.
    const small = termWeights(terms, stats(10, { saved: 0, crew: 3, oriel: 2 }));
    expect(small[0]!).toBeLessThan(small[2]!);
    const large = termWeights(terms, stats(100_000, { saved: 10, crew: 5_000, oriel: 40_000 }));
    expect(large[0]!).toBeGreaterThan(large[2]!);
    for (const w of [...small, ...large]) expect(w).toBeWithin(0, 1.000001);
  });

  test("lone letters (from possessives) weigh nothing; an empty query has no weights", () => {
    const [s, grey] = termWeights(["s", "grey"], stats(10, {}));
    expect(s).toBe(0);
    expect(grey).toBeGreaterThan(0);
    expect(termWeights([], stats(10, {}))).toEqual([]);
  });
});

describe("numbers and units in coverage", () => {
  test("number words match digits, unit spellings match each other", () => {
    expect(stem("eleven")).toBe(stem("11"));
    expect(stem("metre")).toBe(stem("meters"));
    expect(stemSet("a 2.4 m reflector").has(stem("metre"))).toBe(true);
    expect(stem("telescopes")).toBe(stem("telescope"));
  });
});

describe("word forms in coverage", () => {
  test("irregular verb and plural forms match their base form", () => {
    expect(stem("found")).toBe(stem("find"));
    expect(stem("sang")).toBe(stem("sings"));
    expect(stem("wrote")).toBe(stem("writes"));
    expect(stem("children")).toBe(stem("child"));
    // "founded" (to found) stays apart from "found" (to find).
    expect(stem("founded")).not.toBe(stem("find"));
  });

  test("who a verb's action is done by or to, and its -sion noun, match the verb; committee stays apart from commit", () => {
    expect(stem("attendees")).toBe(stem("attended"));
    expect(stem("employee")).toBe(stem("employed"));
    expect(stem("trainees")).toBe(stem("train"));
    expect(stem("guarantee")).toBe(stem("guaranteed"));
    expect(stem("committee")).not.toBe(stem("committed"));
    for (const word of ["coffee", "degree"]) expect(stem(word)).toBe(stem(`${word}s`));
    // A "-sion" noun matches its verb.
    expect(stem("decisions")).toBe(stem("decided"));
    expect(stem("conclusion")).toBe(stem("concludes"));
    expect(stem("expansion")).toBe(stem("expand"));
  });

  test("British -our spellings match American ones; hour, flour and tour stay as they are", () => {
    expect(stem("colour")).toBe(stem("color"));
    expect(stem("colours")).toBe(stem("colors"));
    expect(stem("honoured")).toBe(stem("honored"));
    expect(stem("behaviour")).toBe(stem("behavior"));
    for (const word of ["hour", "flour", "tour", "detour", "your"]) expect(stem(word)).toBe(word);
  });

  test("stems are remembered within a bound: past it, the same words still stem the same", () => {
    const before = ["voices", "countries", "racing", "colours", "eleven"].map(stem);
    // More distinct words than the memory holds (it starts over when full).
    for (let i = 0; i < 60_000; i++) stem(`zq${i.toString(36)}ings`);
    expect(["voices", "countries", "racing", "colours", "eleven"].map(stem)).toEqual(before);
    expect(before).toEqual(["voic", "country", "race", "color", "11"]);
  });
});

test("a four-letter word keeps its 'e' and its inflections find it: 'note' is no 'not', 'same' no 'Sam'", () => {
  const same: [string, string][] = [["noted", "note"], ["noting", "notes"], ["named", "name"], ["coming", "comes"], ["timed", "time"], ["freed", "free"], ["racing", "race"]];
  for (const [a, b] of same) expect(stem(a)).toBe(stem(b));
  const apart: [string, string][] = [["note", "not"], ["same", "sam"], ["time", "tim"], ["code", "cod"], ["site", "sit"], ["care", "car"], ["comes", "com"]];
  for (const [a, b] of apart) expect(stem(a)).not.toBe(stem(b));
  // A three-letter stem whose "e" form English does not write keeps its own ("ended", "fixed", "boxed").
  expect(["ended", "fixed", "boxed", "hopped"].map(stem)).toEqual(["end", "fix", "box", "hop"]);
  // Forms too short for the suffix rules are listed: "used", "using" ↔ use.
  expect(["used", "using", "uses", "use"].map(stem)).toEqual(["use", "use", "use", "use"]);
});
