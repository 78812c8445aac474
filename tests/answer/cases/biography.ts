// Two people's biographies that name each other. The pages are written by the test and
// answers are checked for what they should quote.
// Run by tests/answer/cases.test.ts (one server for every table).
import { titledByHeading } from "../../support/sources";
import type { AnswerTable } from "./table";

export const ADA = `# Ada Quill

Ada Quill (1891–1968) was a British marine engineer and inventor, best known for the Quill tide gauge.

## Early life

Quill was born on 3 May 1891 in Falmouth, Cornwall, the daughter of a harbour pilot.`;

export const EDWIN = `# Edwin Hart

Edwin Hart (1868–1941) was a physicist who taught at the Royal Naval College in Greenwich for thirty years.
He co-founded Quill & Hart with his former student Ada Quill in 1920 and ran its workshop until 1935.`;

export const BIOGRAPHY_TABLE: AnswerTable = {
  brain: "Biographies",
  pages: titledByHeading(ADA, EDWIN),
  cases: [
    // Was her birth, then Edwin Hart's page: "He co-founded Quill & Hart with his former student Ada Quill in
    // 1920" named her with a year, and brought the sentence naming "he".
    { name: "once the best sentence says all that is asked, another page's sentence saying part of it is left out · When was Ada Quill born?", question: "When was Ada Quill born?", contains: ["Quill was born on 3 May 1891 in Falmouth"], excludes: ["Edwin Hart"] },
    { name: "once the best sentence says all that is asked, another page's sentence saying part of it is left out · What is Ada Quill known for?", question: "What is Ada Quill known for?", contains: ["best known for the Quill tide gauge"], excludes: ["Edwin Hart"] },
    // A question the best sentence does not wholly answer still gets the other page's.
    { name: "once the best sentence says all that is asked, another page's sentence saying part of it is left out · Who taught Ada Quill?", question: "Who taught Ada Quill?", contains: ["He co-founded Quill & Hart with his former student Ada Quill"] },
  ],
};
