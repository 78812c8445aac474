// An engineering onboarding page, as internal wikis write it: a table of accounts, a code block introduced by
// a sentence. Asked over real HTTP; the page is written by the test and answers are checked for what they
// should quote.
import { expect, test } from "bun:test";
import { proseUnits } from "../../src/ingest/markdown-prose";
import { brainOf, titledByHeading } from "../support/sources";

const ONBOARDING = `# Engineering onboarding

## Accounts you need

| System | Who grants access | How long it takes |
| --- | --- | --- |
| GitHub | Platform team | Same day |
| AWS | Cloud team | 1–2 days |

## Development environment

We use macOS laptops with Homebrew. Install the toolchain with:

\`\`\`
brew bundle --file=~/acme/Brewfile
make bootstrap
\`\`\`

The monorepo lives at github.com/acme/platform.`;

const ask = brainOf("Acme wiki", titledByHeading(ONBOARDING));

test("a sentence introducing a code block is quoted with the code", async () => {
  // Was "Install the toolchain with:", the commands left out.
  const body = await ask("How do I install the toolchain?");
  expect(body.thin).toBe(false);
  expect(body.answer).toContain("Install the toolchain with: `brew bundle --file=~/acme/Brewfile`; `make bootstrap`");
});

test("only a block the prose introduces, and not one too long to quote", () => {
  const introduced = (markdown: string) => proseUnits(markdown).find((u) => u.kind === "paragraph")?.code;
  expect(introduced("Run:\n\n```sh\nnpm ci\nnpm test\n```")).toEqual(["npm ci", "npm test"]);
  expect(introduced("The tests are below.\n\n```sh\nnpm test\n```")).toBeUndefined();
  expect(introduced(`Run:\n\n\`\`\`\n${Array.from({ length: 12 }, (_, i) => `step ${i}`).join("\n")}\n\`\`\``)).toEqual([]);
});

test("'same day' says how long: the row asked about answers alone", async () => {
  // Was the GitHub row and the AWS row: "Same day" held no duration, so the row beside it ("1–2 days") came too.
  const body = await ask("How long does GitHub access take?");
  expect(body.answer).toContain("System: GitHub; Who grants access: Platform team; How long it takes: Same day.");
  expect(body.answer).not.toContain("AWS");
});
