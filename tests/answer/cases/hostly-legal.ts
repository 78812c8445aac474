// A service's legal pages, as vendors write them: an SLA's table of credits by uptime band, terms of service.
// Run by tests/answer/cases.test.ts.
import type { AnswerTable } from "./table";

export const HOSTLY_LEGAL_TABLE: AnswerTable = {
  brain: "Hostly legal",
  pages: {
    "Service level agreement": `# Service level agreement

## Service credits

| Monthly uptime | Credit (Business) | Credit (Enterprise) |
|---|---|---|
| 99.0% to 99.95% | 10% | 15% |
| 95.0% to 99.0% | 25% | 30% |
| Below 95.0% | 50% | 100% |

Credits are applied to the next invoice and never paid out in cash.`,
    "Terms of service": `# Terms of service

Hostly's total liability in any year is limited to the fees the customer paid in the previous 12 months.

These terms are governed by Irish law, and disputes go to the courts of Dublin.`,
  },
  cases: [
    // Was every row: the bands' decimals were no range, so no row said 98.
    { name: "a number in a band of decimals is that band's: 98% is '95.0% to 99.0%'", question: "What credit do I get if uptime is 98%?", contains: ["Monthly uptime: 95.0% to 99.0%; Credit (Business): 25%; Credit (Enterprise): 30%."], excludes: ["99.0% to 99.95%", "Below 95.0%"] },
    // Was thin: "95" of the question was not "95.0" of the row.
    { name: "a bound holds the numbers on its side, and '95.0' says 95", question: "What is the credit for Enterprise below 95%?", thin: false, contains: ["Monthly uptime: Below 95.0%; Credit (Business): 50%; Credit (Enterprise): 100%."] },
    { name: "a number below a bound is in the band below it", question: "What credit do I get at 90% uptime?", contains: ["Monthly uptime: Below 95.0%"], excludes: ["95.0% to 99.0%"] },
    // Was "Hostly's total liability … These terms are governed by Irish law …": read as a pronoun's sentence.
    { name: "'These terms are …' names what it is about: the sentence before is not brought along", question: "Which law governs the terms?", contains: ["These terms are governed by Irish law"], excludes: ["liability"] },
  ],
};
