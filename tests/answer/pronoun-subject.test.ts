// A sentence whose subject is a pronoun ("It runs on ...") speaks of its page's subject: chosen for an answer
// as if it named it, so the page that answers comes first. Pages are written by the test; the answer is
// checked for the fact and the page cited first.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { expectJson, startTestServer, type TestServer } from "../support/server";
import { addText, askBrain, newBrain, waitForSource } from "../support/sources";

const SOURCES: Record<string, string> = {
  "Deploy runbook":
    "Check that the Grafana dashboard for the Payments API is green. Run the Helm chart upgrade from the Jenkins job. The Payments API rolls out one pod at a time.",
  "Payments API": "The Payments API handles card authorizations for the web shop. It runs on the Kubernetes cluster in Frankfurt and talks to Stripe.",
  "On-call": "The on-call engineer watches the Grafana alerts. For the Payments API, page the team lead after 15 minutes without recovery.",
};

let s: TestServer;
let brainId: string;
beforeAll(async () => {
  s = await startTestServer();
  brainId = await newBrain(s, "Ops");
  for (const [title, content] of Object.entries(SOURCES)) await waitForSource(s, brainId, (await addText(s, brainId, title, content)).source.id);
});
afterAll(() => s.close());

test("where the Payments API runs: answered first from its own page's \"It runs on ...\"", async () => {
  const body = await expectJson(await s.api(`/api/v1/brains/${brainId}/ask`, { method: "POST", json: { question: "Where does the Payments API run?" } }), 200);
  expect(body.thin).toBe(false);
  expect(body.answer).toContain("It runs on the Kubernetes cluster in Frankfurt");
  expect(body.citations[0].slug).toBe("payments-api");
});

// "He runs the Saturday clinic." answers "who" only with the sentence naming him: a team page's label line.
test("who runs the Saturday clinic: the sentence saying \"He …\" comes with the one naming him", async () => {
  const clinic = await newBrain(s, "Clinic");
  const team =
    "# Our team\n\n**Dr. Aisha Rahman**: Principal dentist and clinic owner. She signs off all treatment plans above £1,000.\n\n" +
    "**Dr. Tom Elliot**: Associate dentist. He runs the Saturday clinic.\n\n**Grace Mbeki**: Practice manager. She handles rotas and payroll questions.";
  const hours = "The clinic is open Monday to Friday from 8:00 to 18:00, and on Saturdays from 9:00 to 13:00.";
  for (const [title, content] of Object.entries({ "Our team": team, "Opening hours": hours })) await waitForSource(s, clinic, (await addText(s, clinic, title, content)).source.id);
  const ask = (question: string) => askBrain(s, clinic, question);

  const saturday = await ask("Who runs the Saturday clinic?");
  expect(saturday.thin).toBe(false);
  expect(saturday.answer).toContain("Dr. Tom Elliot: Associate dentist. He runs the Saturday clinic.");
  // Never set after another person's sentence, where it would read as hers.
  expect(saturday.answer).not.toContain("clinic owner. He runs");

  const plans = await ask("Who signs off big treatment plans?");
  expect(plans.answer).toContain("Dr. Aisha Rahman: Principal dentist and clinic owner. She signs off all treatment plans above £1,000.");
});

test("a sentence opening with a pronoun is quoted alone when it opens its page (nothing before it to name anyone)", async () => {
  const body = await expectJson(await s.api(`/api/v1/brains/${brainId}/ask`, { method: "POST", json: { question: "Who handles card authorizations?" } }), 200);
  expect(body.answer).toContain("The Payments API handles card authorizations for the web shop.");
});
