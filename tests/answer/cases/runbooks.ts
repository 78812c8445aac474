// A runbook whose contacts carry short forms ("ext.", "Dr."): answers quote whole sentences. Found outside
// in: "Who is on call?" was answered "On-call engineer: Priya Nair (ext." and the number was lost.
// Run by tests/answer/cases.test.ts.
import type { AnswerTable } from "./table";

export const RUNBOOKS_TABLE: AnswerTable = {
  brain: "Runbooks",
  pages: {
    "Pump runbook": "# Pump runbook\n\n## Stopping\n\nPress STOP, then close valve V2.\n\n## Contacts\n\nOn-call engineer: Priya Nair (ext. 4410). Backup: Dr. Tomas Vik (ext. 4415).",
  },
  cases: [{ name: "the answer keeps the extension number with the name", question: "Who is the on-call engineer?", thin: false, contains: ["Priya Nair (ext. 4410)"] }],
};
