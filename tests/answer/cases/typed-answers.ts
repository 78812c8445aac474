// A question asking for a kind of answer (a name for "who", a time for "when") is answered by the sentence
// holding it, or by one whose heading holds it, quoted with the heading; once that sentence says all that is
// asked, sentences naming the same words without that kind are left out. Run by tests/answer/cases.test.ts.
import type { AnswerTable } from "./table";

export const PRODUCT_CHANGELOG_TABLE: AnswerTable = {
  brain: "Product",
  pages: {
    Changelog: `# Changelog

## 3.1.0 (2026-06-02)
- Single sign-on with Okta and Azure AD.
- Audit log entries are kept for 400 days.

## 3.0.0 (2026-01-20)
- The v1 API is removed. Clients must use v2.
- Exports were rewritten in March 2025 and again in this release.`,
  },
  cases: [
    { name: "a changelog item is dated by its heading: 'when' quotes the heading with the item", question: "When was the v1 API removed?", thin: false, contains: ["3.0.0 (2026-01-20): The v1 API is removed."] },
    // "SSO" is single sign-on, and "Azure AD" is no era: the item holds no time of its own.
    { name: "'SSO' is single sign-on, and 'Azure AD' is no era", question: "When did SSO arrive?", contains: ["3.1.0 (2026-06-02): Single sign-on with Okta and Azure AD."] },
    { name: "an item that dates itself is quoted alone", question: "When were exports rewritten?", contains: ["Exports were rewritten in March 2025"], excludes: ["(2026-01-20):"] },
  ],
};

export const PRACTICE_TABLE: AnswerTable = {
  brain: "Dental practice",
  pages: {
    "Our team": "# Our team\n\n**Grace Mbeki**: Practice manager.\n\n**Sofia Costa**: Receptionist.",
    "Staff leave": "# Staff leave\n\nLeave requests go to the practice manager at least four weeks in advance. If you are ill, phone the practice manager before 7:30.",
  },
  cases: [
    { name: "'Who is the practice manager?' is the name, not also every sentence naming the role", question: "Who is the practice manager?", thin: false, contains: ["Grace Mbeki"], excludes: ["Leave requests", "phone the practice manager"] },
    { name: "asked for what the role does, the staff page's sentences answer", question: "When should I tell the practice manager that I am ill?", contains: ["before 7:30"] },
  ],
};
