// An engineering onboarding page, as internal wikis write it: a table of accounts, a code block introduced by
// a sentence. The page is written by the test and answers are checked for what they
// should quote.
// Run by tests/answer/cases.test.ts (one server for every table).
import { titledByHeading } from "../../support/sources";
import type { AnswerTable } from "./table";

export const ONBOARDING = `# Engineering onboarding

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

export const ONBOARDING_TABLE: AnswerTable = {
  brain: "Acme wiki",
  pages: titledByHeading(ONBOARDING),
  cases: [
    // Was "Install the toolchain with:", the commands left out.
    { name: "a sentence introducing a code block is quoted with the code", question: "How do I install the toolchain?", contains: ["Install the toolchain with: `brew bundle --file=~/acme/Brewfile`; `make bootstrap`"], thin: false },
    // Was the GitHub row and the AWS row: "Same day" held no duration, so the row beside it ("1–2 days") came too.
    { name: "'same day' says how long: the row asked about answers alone", question: "How long does GitHub access take?", contains: ["System: GitHub; Who grants access: Platform team; How long it takes: Same day."], excludes: ["AWS"] },
  ],
};
