// Two people named with one surname ("Samuel and Martha Ode"): each is a person of that surname, so a source
// naming the couple is a second source for each of them. Extraction directly, and a brain over real HTTP.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { findPhrases } from "../../src/concepts/nlp";
import { expectJson, startTestServer, type TestServer } from "../support/server";
import { addTextsReady, newBrain } from "../support/sources";

const names = (text: string) => findPhrases(text).phrases.filter((p) => p.kind === "proper").map((p) => p.surface);

test("a first name before 'and' and a person's full name takes that surname", () => {
  expect(names("Samuel and Martha Ode took the keepers' boat out at dawn.")).toEqual(expect.arrayContaining(["Samuel Ode", "Martha Ode"]));
  expect(names("The house was left to John & Mary Whitcombe in 1902.")).toEqual(expect.arrayContaining(["John Whitcombe", "Mary Whitcombe"]));
  // Not two first names, nor a name that is no person's, nor a first name before another kind of name.
  expect(names("After learning that Hank and Alex are on their way, Kara tells Lucy.")).toContain("Hank");
  expect(names("Grace and Kellan Point are on the map.").filter((n) => n.startsWith("Grace "))).toEqual([]);
  expect(names("Samuel and the Port Commission met in 1861.")).not.toContain("Samuel Port Commission");
});

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

test("a source naming the couple is the second source of each: both get a concept page", async () => {
  const brainId = await newBrain(s, "Kellan");
  await addTextsReady(s, brainId, {
    "The Harbour Light": "The first keeper was Samuel Ode, who kept the light until 1879. Martha Ode kept the logbooks.",
    "The wreck of the Oriel": "Samuel and Martha Ode took the keepers' boat out at dawn; the survivors were landed at Kellan harbour.",
  });
  // The first name alone was a concept of its own ("Samuel"), so Samuel Ode had one source and no page.
  const { page } = await expectJson(await s.api(`/api/v1/brains/${brainId}/pages/samuel-ode`), 200);
  expect(page.markdown).toContain("The first keeper was Samuel Ode");
  expect(page.markdown).toContain("Samuel and Martha Ode took the keepers' boat out at dawn");
  await expectJson(await s.api(`/api/v1/brains/${brainId}/pages/martha-ode`), 200);
});
