// A product roadmap, as teams write one. The page is written by the test and answers are
// checked for what they should quote.
// Run by tests/answer/cases.test.ts (one server for every table).
import type { AnswerTable } from "./table";

export const ROADMAP = `# Product roadmap 2027

Owner: Priya Raman, head of product. Last reviewed 2 November 2026.

## Q1 2027

- Single sign-on with Okta and Azure AD.
- A redesigned mobile dashboard.
- Audit log export to S3.

## Q2 2027

- Offline mode for the field app.
- Usage-based billing, replacing seat licences.`;

export const ROADMAP_TABLE: AnswerTable = {
  brain: "Plans",
  pages: { "Product roadmap 2027": ROADMAP },
  cases: [
    // Was thin: no item says "planned"; the roadmap lists them under "## Q1 2027".
    { name: "'what is planned for Q1' is the items under the quarter's heading", question: "What is planned for Q1 2027?", contains: ["Single sign-on with Okta and Azure AD.", "Audit log export to S3."], excludes: ["Offline mode"], thin: false },
    // Was thin: "owns" is not "Owner".
    { name: "'who owns it' is the line labelled with its owner", question: "Who owns the roadmap?", contains: ["Owner: Priya Raman, head of product."], thin: false },
    // The owner is no approver: the roadmap does not say who approved it.
    { name: "a label names the doer of its own verb only", question: "Who approved the roadmap?", thin: true },
  ],
};
