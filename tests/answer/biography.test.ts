// Two people's biographies that name each other. Asked over real HTTP; the pages are written by the test and
// answers are checked for what they should quote.
import { expect, test } from "bun:test";
import { brainOf, titledByHeading } from "../support/sources";

const ADA = `# Ada Quill

Ada Quill (1891–1968) was a British marine engineer and inventor, best known for the Quill tide gauge.

## Early life

Quill was born on 3 May 1891 in Falmouth, Cornwall, the daughter of a harbour pilot.`;

const EDWIN = `# Edwin Hart

Edwin Hart (1868–1941) was a physicist who taught at the Royal Naval College in Greenwich for thirty years.
He co-founded Quill & Hart with his former student Ada Quill in 1920 and ran its workshop until 1935.`;

const ask = brainOf("Biographies", titledByHeading(ADA, EDWIN));

test("once the best sentence says all that is asked, another page's sentence saying part of it is left out", async () => {
  // Was her birth, then Edwin Hart's page: "He co-founded Quill & Hart with his former student Ada Quill in
  // 1920" named her with a year, and brought the sentence naming "he".
  const born = await ask("When was Ada Quill born?");
  expect(born.answer).toContain("Quill was born on 3 May 1891 in Falmouth");
  expect(born.answer).not.toContain("Edwin Hart");
  const known = await ask("What is Ada Quill known for?");
  expect(known.answer).toContain("best known for the Quill tide gauge");
  expect(known.answer).not.toContain("Edwin Hart");
  // A question the best sentence does not wholly answer still gets the other page's.
  const taught = await ask("Who taught Ada Quill?");
  expect(taught.answer).toContain("He co-founded Quill & Hart with his former student Ada Quill");
});
