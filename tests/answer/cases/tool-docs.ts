// A command-line tool's documentation, as projects write it: a command reference, troubleshooting by symptom,
// where things live on disk. The pages are written by the test and answers are checked
// for what they should quote.
// Run by tests/answer/cases.test.ts (one server for every table).
import { titledByHeading } from "../../support/sources";
import type { AnswerTable } from "./table";

export const COMMANDS = `# Command reference

## tern sync

\`tern sync SOURCE DEST\` makes DEST match SOURCE. Either side can be a local path or \`s3://bucket/prefix\`.

Flags:
- \`--delete\`: remove files from DEST that are not in SOURCE. Off by default.
- \`--dry-run\`: print what would change without changing anything.
- \`--checksum\`: compare files by SHA-256 instead of size and modification time.

## tern ls

\`tern ls s3://bucket/prefix\` lists objects with their size and last-modified time. Add \`--recursive\` to list every level.

## tern doctor

\`tern doctor\` checks the configuration, the credentials and the clock skew, and prints a report. Run it first when something fails.`;

export const CONFIGURATION = `# Configuration

tern reads its settings from \`~/.config/tern/config.toml\`, then from environment variables, then from flags. A flag always wins over an environment variable, and an environment variable wins over the file.

## Credentials

Never put secret keys in config.toml if the file is shared.`;

export const TROUBLESHOOTING = `# Troubleshooting

## Slow uploads

Large files upload in parts of \`part_size\`. On a slow or shared link, lower the concurrency to 2 and set a \`bandwidth_limit\`.

## Logs

Logs rotate daily and are kept for a week. Logs are written to /var/log/tern/tern.log by default.`;

export const CHANGELOG = `# Changelog

## 2.4.1
- Fixed a crash when an ignore line ended with a backslash.
- The doctor command now checks the clock skew.`;

export const FAQ = `# FAQ

## Is tern free?

Yes. tern is open source under the Apache 2.0 license. There is no paid edition.

## Does tern encrypt my files?

tern always uses HTTPS in transit. For encryption at rest, enable server-side encryption on the bucket, or pass \`--sse aws:kms\` to use a KMS key.`;

export const TOOL_DOCS_TABLE: AnswerTable = {
  brain: "tern docs",
  pages: titledByHeading(COMMANDS, CONFIGURATION, TROUBLESHOOTING, CHANGELOG, FAQ),
  cases: [
    // Was thin: "recursively" and "recursive" were two words to the answerer (the index's stemmer joined them).
    { name: "an adverb is read as its adjective: 'list files recursively' finds '--recursive'", question: "How do I list files recursively?", contains: ["Add `--recursive` to list every level."], thin: false },
    // Was "Fixed a crash when an ignore line ended with a backslash.": "fix" was ranked as the action asked for.
    { name: "'how do I fix X' asks for X's remedy: 'fix' is no action a page must name", question: "How do I fix slow uploads?", contains: ["lower the concurrency to 2"], excludes: ["Fixed a crash"], thin: false },
    { name: "a path answers 'where': the sentence saying where logs are written, not only that they rotate · Where are the logs?", question: "Where are the logs?", contains: ["/var/log/tern/tern.log"], excludes: ["rotate daily"], thin: false },
    // Said first, before sentences naming the file without saying where it is.
    { name: "a path answers 'where': the sentence saying where logs are written, not only that they rotate · Where is the config file?", question: "Where is the config file?", startsWith: "tern reads its settings from `~/.config/tern/config.toml`" },
    // Was "Run it first when something fails." alone: what to run was the sentence before.
    { name: "a sentence about 'it' is read with the one saying what it is", question: "What should I run first when something fails?", contains: ["`tern doctor` checks the configuration, the credentials and the clock skew, and prints a report. Run it first when something fails."], thin: false },
    // Was thin: "don" (of "don't") was the question's heaviest term, and "happens" a word the page need not say.
    { name: "'what happens if I don't …' is answered by what the option does, not thin", question: "What happens if I don't pass --delete?", contains: ["`--delete`: remove files from DEST that are not in SOURCE."], thin: false },
  ],
};
