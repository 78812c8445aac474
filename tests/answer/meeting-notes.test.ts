// A project's meeting notes, titled by meeting and date, and its team page. Asked over real HTTP; the pages
// are written by the test and answers are checked for what they should quote.
// Its questions asked of the pages are a table: tests/answer/cases/meeting-notes.ts.
import { expect, test } from "bun:test";
import { stem } from "../../src/modules/answer/sentences";
import { titledByHeading } from "../support/sources";

test("a '-tion' noun stems as its verb when English writes it, and only then", () => {
  const same: [string, string][] = [["escalations", "escalate"], ["deletion", "delete"], ["connection", "connect"], ["creation", "create"], ["selection", "select"]];
  for (const [noun, verb] of same) expect(stem(noun)).toBe(stem(verb));
  const apart: [string, string][] = [["station", "state"], ["notion", "note"], ["portion", "port"], ["question", "quest"], ["definition", "definite"], ["vacation", "vacate"]];
  for (const [noun, other] of apart) expect(stem(noun)).not.toBe(stem(other));
});

