// The question frame (src/modules/answer/frame.ts): each shape read from the question's words alone, and the
// bad inputs that must read as plain (no entity, another script, keywords) or not crash.
import { expect, test } from "bun:test";
import { frameOf } from "../../src/modules/answer/frame";
import { switchRulesOff } from "../../src/modules/answer/rules";

test("a comparison: its options, what is compared and which way", () => {
  const f = frameOf("Which film came out first, Sacred Planet or Oz the Great and Powerful?");
  expect(f.shape).toBe("comparison");
  expect(f.optionSplits[0]).toEqual(["Sacred Planet", "Oz the Great and Powerful"]);
  expect(f.compared).toMatchObject({ value: "event", pick: "min" });
  expect(frameOf("Who lived longer, James A. Ryder or Arthur Kellam Tylee?").compared).toMatchObject({ value: "lifespan", pick: "max" });
  expect(frameOf("Which film has the director who died later, The Devil And Miss Jones or The Man In The Funny Suit?")).toMatchObject({ via: "director", compared: { value: "death", pick: "max" } });
});

test("three options are one way to split them; names with commas keep the other", () => {
  const f = frameOf("Which film came out first, Oz, Tideline, or Harbour Lights?");
  expect(f.optionSplits).toContainEqual(["Oz", "Tideline", "Harbour Lights"]);
  expect(f.optionSplits).toContainEqual(["Oz, Tideline", "Harbour Lights"]);
});

test("yes/no: the same country, with each split at 'and' (names hold 'and')", () => {
  const f = frameOf("Are Land And Freedom and Aardram both from the same country?");
  expect(f.shape).toBe("yes-no");
  expect(f.same).toBe("country");
  expect(f.optionSplits).toContainEqual(["Land And Freedom", "Aardram"]);
  expect(frameOf("Are the directors of films Tideline and Oz from the same country?").via).toBe("director");
  expect(frameOf("Is Sam Raimi older than Jon Long?")).toMatchObject({ shape: "yes-no", polarComparison: true, optionSplits: [["Sam Raimi", "Jon Long"]] });
});

test("a bridge: the relations in the question's order and the attribute asked", () => {
  const f = frameOf("What is the place of birth of the composer of film Men With Brooms?");
  expect(f.shape).toBe("bridge");
  expect(f.attribute).toBe("birthplace");
  expect(f.relations.map((r) => r.word)).toEqual(["composer"]);
  // A kinship word of two hops is two relations, the nearer first.
  expect(frameOf("Who is the paternal grandfather of Diarmait Ua Briain?").relations.map((r) => r.word)).toEqual(["father", "father"]);
  expect(frameOf("Who is the spouse of the performer of song Everybody Loves You Now?").relations.map((r) => r.word)).toEqual(["spouse", "performer"]);
  // One relation and nothing asked of it is a plain question.
  expect(frameOf("Who is the director of Tideline?").shape).toBe("plain");
});

test("two parts: each its own question", () => {
  expect(frameOf("Who owns the billing service and what language is it written in?")).toMatchObject({ shape: "two-part", parts: ["Who owns the billing service?", "what language is it written in?"] });
  expect(frameOf("What are salt and pepper?").shape).not.toBe("two-part");
});

test("bad inputs read as plain: no entity, keywords, another script, empty", () => {
  for (const q of ["Where was the director born?", "pricing", "Где родился режиссёр фильма Sacred Planet?", "映画の監督はどこで生まれましたか", "", "?".repeat(2000)]) {
    const f = frameOf(q);
    expect(["plain", "bridge"]).toContain(f.shape);
    expect(f.optionSplits).toEqual([]);
  }
});

test("an unknown rule name is refused, so a typo is no measurement", () => {
  expect(() => switchRulesOff(["shape.brige"])).toThrow(/unknown answer rule/);
});
