// A coworking space's member guide beside its events table. The pages are written by the
// test and answers are checked for what they should quote.
// Run by tests/answer/cases.test.ts (one server for every table).
import type { AnswerTable } from "./table";

export const COWORKING_TABLE: AnswerTable = {
  brain: "Hive",
  pages: {
  "Member guide": `# Hive Coworking member guide

Hive is open 24/7 for Resident members. Flex members can use the space Monday to Friday, 8:00 to 19:00.

## Getting here

Hive is at Rua das Flores 112, Porto. Bike parking is in the courtyard.`,
  "Events, December 2026": `# Events, December 2026

| Date | Event | Host |
|---|---|---|
| 10 December | Design critique night | Rui Costa |
| 17 December | Holiday party | Hive team |`,
},
  cases: [
    // Was also "Hive is open 24/7 …" and the party hosted by the Hive team.
    { name: "'where is it' is its street address, alone", question: "Where is Hive?", contains: ["Hive is at Rua das Flores 112, Porto."], excludes: ["24/7", "Holiday party"] },
  ],
};
