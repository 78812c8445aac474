// A sentence whose subject is a pronoun ("It runs on ...") speaks of its page's subject: chosen for an answer
// as if it named it, so the page that answers comes first. Run by tests/answer/cases.test.ts.
import type { AnswerTable } from "./table";

export const OPS_TABLE: AnswerTable = {
  brain: "Ops",
  pages: {
    "Deploy runbook":
      "Check that the Grafana dashboard for the Payments API is green. Run the Helm chart upgrade from the Jenkins job. The Payments API rolls out one pod at a time.",
    "Payments API": "The Payments API handles card authorizations for the web shop. It runs on the Kubernetes cluster in Frankfurt and talks to Stripe.",
    "On-call": "The on-call engineer watches the Grafana alerts. For the Payments API, page the team lead after 15 minutes without recovery.",
  },
  cases: [
    { name: "where the Payments API runs: answered first from its own page's \"It runs on ...\"", question: "Where does the Payments API run?", thin: false, contains: ["It runs on the Kubernetes cluster in Frankfurt"], firstCited: "payments-api" },
    { name: "a sentence opening with a pronoun is quoted alone when it opens its page", question: "Who handles card authorizations?", contains: ["The Payments API handles card authorizations for the web shop."] },
  ],
};

// "He runs the Saturday clinic." answers "who" only with the sentence naming him: a team page's label line.
export const CLINIC_TABLE: AnswerTable = {
  brain: "Clinic",
  pages: {
    "Our team":
      "# Our team\n\n**Dr. Aisha Rahman**: Principal dentist and clinic owner. She signs off all treatment plans above £1,000.\n\n" +
      "**Dr. Tom Elliot**: Associate dentist. He runs the Saturday clinic.\n\n**Grace Mbeki**: Practice manager. She handles rotas and payroll questions.",
    "Opening hours": "The clinic is open Monday to Friday from 8:00 to 18:00, and on Saturdays from 9:00 to 13:00.",
  },
  cases: [
    // Never set after another person's sentence, where it would read as hers.
    { name: "who runs the Saturday clinic: the sentence saying \"He …\" comes with the one naming him", question: "Who runs the Saturday clinic?", thin: false, contains: ["Dr. Tom Elliot: Associate dentist. He runs the Saturday clinic."], excludes: ["clinic owner. He runs"] },
    { name: "a label line's person and her sentence come together", question: "Who signs off big treatment plans?", contains: ["Dr. Aisha Rahman: Principal dentist and clinic owner. She signs off all treatment plans above £1,000."] },
  ],
};
