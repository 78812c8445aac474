// A sentence whose subject is a pronoun ("It runs on ...") speaks of its page's subject: chosen for an answer
// as if it named it, so the page that answers comes first. Pages are written by the test; the answer is
// checked for the fact and the page cited first.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { expectJson, startTestServer, type TestServer } from "../support/server";
import { addText, newBrain, waitForSource } from "../support/sources";

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
