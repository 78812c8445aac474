// A product roadmap, as teams write one. Asked over real HTTP; the page is written by the test and answers are
// checked for what they should quote.
import { expect, test } from "bun:test";
import { brainOf } from "../support/sources";

const ROADMAP = `# Product roadmap 2027

Owner: Priya Raman, head of product. Last reviewed 2 November 2026.

## Q1 2027

- Single sign-on with Okta and Azure AD.
- A redesigned mobile dashboard.
- Audit log export to S3.

## Q2 2027

- Offline mode for the field app.
- Usage-based billing, replacing seat licences.`;

const ask = brainOf("Plans", { "Product roadmap 2027": ROADMAP });

test("'what is planned for Q1' is the items under the quarter's heading", async () => {
  // Was thin: no item says "planned"; the roadmap lists them under "## Q1 2027".
  const body = await ask("What is planned for Q1 2027?");
  expect(body.thin).toBe(false);
  expect(body.answer).toContain("Single sign-on with Okta and Azure AD.");
  expect(body.answer).toContain("Audit log export to S3.");
  expect(body.answer).not.toContain("Offline mode");
});

test("'who owns it' is the line labelled with its owner", async () => {
  // Was thin: "owns" is not "Owner".
  const body = await ask("Who owns the roadmap?");
  expect(body.thin).toBe(false);
  expect(body.answer).toContain("Owner: Priya Raman, head of product.");
});

test("a label names the doer of its own verb only", async () => {
  // The owner is no approver: the roadmap does not say who approved it.
  const body = await ask("Who approved the roadmap?");
  expect(body.thin).toBe(true);
});
