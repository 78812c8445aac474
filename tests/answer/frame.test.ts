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

test("yes/no: the same relation, a country asked, an order said with before/after", () => {
  expect(frameOf("Do both films Tideline and Lantern Street have the same director?")).toMatchObject({ shape: "yes-no", same: "relation", via: "director", optionSplits: [["Tideline", "Lantern Street"]] });
  expect(frameOf("Were Sacred Planet and Tideline directed by the same person?")).toMatchObject({ same: "relation", via: "director" });
  expect(frameOf("Are Sam Raimi and Ada Brook both American film directors?")).toMatchObject({ same: "country", countryAsked: "United States", via: null, optionSplits: [["Sam Raimi", "Ada Brook"]] });
  expect(frameOf("Are both Cold River and Ilha River in Brazil?")).toMatchObject({ countryAsked: "Brazil", optionSplits: [["Cold River", "Ilha River"]] });
  expect(frameOf("Was Jon Long born before Sam Raimi?")).toMatchObject({ polarComparison: true, compared: { value: "birth", pick: "min" }, optionSplits: [["Jon Long", "Sam Raimi"]] });
  expect(frameOf("Did Jon Long die after Sam Raimi?").compared).toMatchObject({ value: "death", pick: "max" });
  expect(frameOf("Was the director of film Oz born earlier than the director of film Tideline?")).toMatchObject({ via: "director", compared: { value: "birth", pick: "min" }, optionSplits: [["Oz", "Tideline"]] });
  // A relation word inside an option's title is no relation: "Velvet (Singer)" is a page, not a singer to follow.
  expect(frameOf("Did Dwight Harwood and Velvet (Singer) have the same nationality?").via).toBeNull();
  expect(frameOf("Do both films A and B have the directors from the same country?").via).toBe("director");
  // A choice in a polar question's words is a comparison, not a yes/no.
  expect(frameOf("Was Recep Çetin or Kim Ho born first?")).toMatchObject({ shape: "comparison", compared: { value: "birth", pick: "min" }, optionSplits: [["Recep Çetin", "Kim Ho"]] });
  expect(frameOf("Did the film Tideline or Oz come out first?").optionSplits).toEqual([["Tideline", "Oz"]]);
  expect(frameOf("Is it red or blue?").shape).toBe("plain");
  // "both" with no country and no "same": no yes/no shape.
  expect(frameOf("Are both of them happy?").shape).toBe("plain");
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
