// "How long / how old / how far / how tall / how often" ask for a measure of that kind, not any number: the
// sentence giving the duration answers "how long", not the one counting runners. Pages are written by the
// test; answers are checked for the sentence, over real HTTP.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { measureAsked } from "../../src/modules/answer/measures";
import { expectJson, startTestServer, type TestServer } from "../support/server";
import { addTextsReady, newBrain } from "../support/sources";

let s: TestServer;
let brainId: string;
beforeAll(async () => {
  s = await startTestServer();
  brainId = await newBrain(s, "Races");
  await addTextsReady(s, brainId, {
    "Harbour Run": "The Harbour Run is a race for 250 runners along the old quay. The Harbour Run takes about three hours for most runners. It has been held every spring since 1987.",
    "Lighthouse": "The Corrowick lighthouse has 112 steps and two keepers. The Corrowick lighthouse is 41 metres tall.",
  });
});
afterAll(() => s.close());

const ask = async (question: string) => expectJson(await s.api(`/api/v1/brains/${brainId}/ask`, { method: "POST", json: { question } }), 200);

test("'how long' is answered by a duration, 'how tall' by a height, 'how many' by any number", async () => {
  const long = await ask("How long is the Harbour Run?");
  expect(long.answer).toContain("takes about three hours");
  expect(long.answer).not.toContain("250 runners");
  const tall = await ask("How tall is the Corrowick lighthouse?");
  expect(tall.answer).toContain("41 metres tall");
  expect(tall.answer).not.toContain("112 steps");
  const many = await ask("How many steps does the Corrowick lighthouse have?");
  expect(many.answer).toContain("112 steps");
});

test("the measures asked", () => {
  const long = measureAsked("How long does failover take?")!;
  expect(long.test("Failover normally completes in under two minutes.")).toBe(true);
  expect(long.test("The war lasted from 1914 to 1918.")).toBe(true);
  expect(long.test("Quiet hours are from 22:00 to 7:00.")).toBe(true);
  expect(long.test("It features eight single men and women.")).toBe(false);
  expect(measureAsked("How often are backups taken?")!.test("Backups are taken twice a day.")).toBe(true);
  expect(measureAsked("How old is the bridge?")!.test("The bridge was built in 1889.")).toBe(true);
  expect(measureAsked("How many plans are there?")).toBeNull();
});
