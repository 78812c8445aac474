// A concept page's title among the forms its mentions wrote (src/concepts/refresh.ts conceptTitle).
import { expect, test } from "bun:test";
import { conceptTitle } from "../../src/concepts/refresh";

test("the longest form names the concept, but not a plural whose singular was written too", () => {
  expect(conceptTitle(["Curie", "Marie Curie", "Curie"])).toBe("Marie Curie");
  expect(conceptTitle(["data centers", "data center"])).toBe("data center");
  expect(conceptTitle(["harbour cities", "harbour city"])).toBe("harbour city");
  // Only the plural written: it stays as written.
  expect(conceptTitle(["data centers", "data centers"])).toBe("data centers");
  // Not a plural of another form ("glass" is no plural of "glas"): the longest.
  expect(conceptTitle(["stained glass", "stained glas"])).toBe("stained glass");
});
