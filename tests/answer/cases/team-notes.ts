// A team's weekly notes beside its directory, as teams keep them. The pages are written by
// the test and answers are checked for what they should quote.
// Run by tests/answer/cases.test.ts (one server for every table).
import type { AnswerTable } from "./table";

export const TEAM_NOTES_TABLE: AnswerTable = {
  brain: "Team",
  pages: {
  "Weekly sync, 3 November 2026": `# Weekly sync, 3 November 2026

Attendees: Omar Haddad, Lena Fischer, Tomás Ruiz.

- Omar is migrating the billing service to Postgres 16; cut-over planned for 20 November.
- Tomás is hiring two backend engineers; interviews start next week.`,
  "Weekly sync, 10 November 2026": `# Weekly sync, 10 November 2026

Attendees: Omar Haddad, Lena Fischer.

- Lena will lead the accessibility audit in December.`,
  "Team directory": `# Team directory

| Name | Role | Location |
|---|---|---|
| Omar Haddad | Staff engineer, payments | Amsterdam |
| Lena Fischer | Mobile lead | Berlin |
| Tomás Ruiz | Engineering manager | Madrid |`,
},
  cases: [
    // Was followed by both syncs' "Attendees: …" lines.
    { name: "'who is' a person is not also the lists of names she is in", question: "Who is Lena Fischer?", contains: ["Name: Lena Fischer; Role: Mobile lead; Location: Berlin."], excludes: ["Attendees:"] },
    // Was also the attendee list and his hiring: the row did not say "based".
    { name: "'where is someone based' is said by a place said as one, alone", question: "Where is Tomás based?", contains: ["Name: Tomás Ruiz; Role: Engineering manager; Location: Madrid."], excludes: ["hiring", "Attendees:"] },
    { name: "who attended is still the list of names", question: "Who attended the sync on 10 November?", contains: ["Attendees: Omar Haddad, Lena Fischer."] },
  ],
};
