// An engineering onboarding page, as internal wikis write it: a table of accounts, a code block introduced by
// a sentence. Asked over real HTTP; the page is written by the test and answers are checked for what they
// should quote.
// Its questions asked of the pages are a table: tests/answer/cases/onboarding.ts.
import { expect, test } from "bun:test";
import { proseUnits } from "../../src/ingest/markdown-prose";
import { titledByHeading } from "../support/sources";

test("only a block the prose introduces, and not one too long to quote", () => {
  const introduced = (markdown: string) => proseUnits(markdown).find((u) => u.kind === "paragraph")?.code;
  expect(introduced("Run:\n\n```sh\nnpm ci\nnpm test\n```")).toEqual(["npm ci", "npm test"]);
  expect(introduced("The tests are below.\n\n```sh\nnpm test\n```")).toBeUndefined();
  expect(introduced(`Run:\n\n\`\`\`\n${Array.from({ length: 12 }, (_, i) => `step ${i}`).join("\n")}\n\`\`\``)).toEqual([]);
});

