// A question asking for a kind of answer (a name for "who", a time for "when") is answered by the sentence
// holding it, or by one whose heading holds it, quoted with the heading; once that sentence says all that is
// asked, sentences naming the same words without that kind are left out. Pages are
// written by the test; answers are checked for the sentences, over real HTTP.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../support/server";
import { addTextsReady, askBrain, newBrain } from "../support/sources";

const CHANGELOG = `# Changelog

## 3.1.0 (2026-06-02)
- Single sign-on with Okta and Azure AD.
- Audit log entries are kept for 400 days.

## 3.0.0 (2026-01-20)
- The v1 API is removed. Clients must use v2.
- Exports were rewritten in March 2025 and again in this release.`;

let s: TestServer;
let brainId: string;
let changelog: string;
beforeAll(async () => {
  s = await startTestServer();
  changelog = await newBrain(s, "Product");
  await addTextsReady(s, changelog, { Changelog: CHANGELOG });
  brainId = await newBrain(s, "Clinic");
  await addTextsReady(s, brainId, {
    "Our team": "# Our team\n\n**Grace Mbeki**: Practice manager.\n\n**Sofia Costa**: Receptionist.",
    "Staff leave": "# Staff leave\n\nLeave requests go to the practice manager at least four weeks in advance. If you are ill, phone the practice manager before 7:30.",
  });
});
afterAll(() => s.close());

const ask = (question: string, brain = brainId) => askBrain(s, brain, question);

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

test("a changelog item is dated by its heading: 'when' quotes the heading with the item", async () => {
  const removed = await ask("When was the v1 API removed?", changelog);
  expect(removed.thin).toBe(false);
  expect(removed.answer).toContain("3.0.0 (2026-01-20): The v1 API is removed.");
  // "SSO" is single sign-on, and "Azure AD" is no era: the item holds no time of its own.
  const sso = await ask("When did SSO arrive?", changelog);
  expect(sso.answer).toContain("3.1.0 (2026-06-02): Single sign-on with Okta and Azure AD.");
  // An item that dates itself is quoted alone.
  const exports = await ask("When were exports rewritten?", changelog);
  expect(exports.answer).toContain("Exports were rewritten in March 2025");
  expect(exports.answer).not.toContain("(2026-01-20):");
});
