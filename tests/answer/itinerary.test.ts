// Nouns of actions stem as their verbs. The itinerary's answers are a table: tests/answer/cases/itinerary.ts.
import { expect, test } from "bun:test";
import { stem } from "../../src/modules/answer/sentences";

test("a noun of an action written unlike its verb stems as the verb", () => {
  const same: [string, string][] = [["flight", "fly"], ["flights", "flew"], ["arrival", "arrives"], ["renewal", "renewed"], ["death", "died"], ["payments", "pay"], ["losses", "lost"]];
  for (const [noun, verb] of same) expect(stem(noun)).toBe(stem(verb));
  // Look-alikes that are no verb's noun keep their own stems.
  const apart: [string, string][] = [["signal", "sign"], ["portal", "port"], ["pressure", "press"]];
  for (const [noun, other] of apart) expect(stem(noun)).not.toBe(stem(other));
});
