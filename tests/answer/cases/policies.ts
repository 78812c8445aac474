// Everyday phrases asked of the one word a policy writes instead ("money back" of "refund", "time off" of
// "leave"), and a protocol's location question answered by the one sentence saying it.
// Run by tests/answer/cases.test.ts.
import type { AnswerTable } from "./table";

export const POLICIES_TABLE: AnswerTable = {
  brain: "Policies",
  pages: {
    "Billing FAQ": `# Billing FAQ

## How do refunds work?

We refund annual plans in full within 30 days of purchase. Monthly plans can be cancelled at any time.

## Which payment methods do you accept?

Visa, Mastercard and SEPA direct debit.`,
    "Leave policy": `# Leave policy

Employees get 25 days of paid annual leave a year, plus public holidays.

Sick leave: tell your manager before 10:00 on the first day.`,
    "PCR protocol": `# PCR protocol

1. Thaw the reagents on ice and vortex briefly.
2. Mix 12.5 µl of 2x master mix, 1 µl of each primer (10 µM), 2 µl of template DNA and 8.5 µl of water.

Primers are kept in the blue box on the second shelf of freezer B.`,
  },
  cases: [
    // Was thin.
    { name: "'money back' is asked of a page that says 'refund'", question: "Can I get my money back?", thin: false, contains: ["We refund annual plans in full within 30 days of purchase."] },
    { name: "'time off' is asked of a page that says 'leave'", question: "How much time off do I get?", thin: false, contains: ["Employees get 25 days of paid annual leave a year"] },
    // Was also the step that pipettes the primers, quoted first.
    { name: "a sentence saying where, whole, is not joined by another of its page naming the thing in passing", question: "Where are the primers kept?", contains: ["Primers are kept in the blue box on the second shelf of freezer B."], excludes: ["Mix 12.5"] },
  ],
};
