// A question asking for a kind of answer (a name for "who") is answered by the sentence holding it; once that
// sentence says all that is asked, sentences naming the same words without that kind are left out. Pages are
// written by the test; answers are checked for the sentences, over real HTTP.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { expectJson, startTestServer, type TestServer } from "../support/server";
import { addTextsReady, newBrain } from "../support/sources";

let s: TestServer;
let brainId: string;
beforeAll(async () => {
  s = await startTestServer();
  brainId = await newBrain(s, "Clinic");
  await addTextsReady(s, brainId, {
    "Our team": "# Our team\n\n**Grace Mbeki**: Practice manager.\n\n**Sofia Costa**: Receptionist.",
    "Staff leave": "# Staff leave\n\nLeave requests go to the practice manager at least four weeks in advance. If you are ill, phone the practice manager before 7:30.",
  });
});
afterAll(() => s.close());

const ask = async (question: string) => expectJson(await s.api(`/api/v1/brains/${brainId}/ask`, { method: "POST", json: { question } }), 200);

test("'Who is the practice manager?' is the name, not also every sentence naming the role", async () => {
  const body = await ask("Who is the practice manager?");
  expect(body.thin).toBe(false);
  expect(body.answer).toContain("Grace Mbeki");
  expect(body.answer).not.toContain("Leave requests");
  expect(body.answer).not.toContain("phone the practice manager");
  // Asked for what the role does, the staff page's sentences answer.
  const what = await ask("When should I tell the practice manager that I am ill?");
  expect(what.answer).toContain("before 7:30");
});
