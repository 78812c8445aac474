// A residential lease and an appliance's manual. The pages are written by the test and
// answers are checked for what they should quote.
// Run by tests/answer/cases.test.ts (one server for every table).
import { titledByHeading } from "../../support/sources";
import type { AnswerTable } from "./table";

export const LEASE = `# Residential lease: 14 Elm Street, Apartment 3B

## Term and rent

The lease runs from 1 September 2026 to 31 August 2027.
Rent is 1,850 dollars a month, due on the first day of each month.

## Repairs

Emergency repairs (no heat, a leak, no water) are handled within 24 hours; call 555-0177.

## Ending the lease

Either party must give 60 days' written notice before the end of the term.
If the tenants leave early, they owe rent until a new tenant moves in, up to two months.`;

export const SPECS = `# Aero 3 espresso machine: setup

| Specification | Value |
|---|---|
| Pump pressure | 15 bar |
| Water tank | 1.8 litres |
| Weight | 6.2 kg |`;

export const LEASE_TABLE: AnswerTable = {
  brain: "Lease",
  pages: titledByHeading(LEASE, SPECS),
  cases: [
    // Was "Either party must give 60 days' written notice before the end of the term." and the early-leaving
    // sentence: they say "end" and "lease" (the title), the span of dates says neither.
    { name: "a span of dates says when it starts and when it ends; a phone number is no span · When does the lease end?", question: "When does the lease end?", excludes: ["555-0177"], startsWith: "The lease runs from 1 September 2026 to 31 August 2027." },
    { name: "a span of dates says when it starts and when it ends; a phone number is no span · When does the lease start?", question: "When does the lease start?", startsWith: "The lease runs from 1 September 2026 to 31 August 2027." },
    // Was thin-worded sentences of other pages: "weigh" and "weight" were two words.
    { name: "'how much does it weigh?' is the Weight row", question: "How much does the Aero 3 weigh?", contains: ["Specification: Weight; Value: 6.2 kg."] },
  ],
};
