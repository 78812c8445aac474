// A command-line tool's documentation, as projects write it: a command reference, troubleshooting by symptom,
// where things live on disk. Asked over real HTTP; the pages are written by the test and answers are checked
// for what they should quote.
import { expect, test } from "bun:test";
import { stem } from "../../src/modules/answer/sentences";
import { queryTerms } from "../../src/retrieval";
import { weighEvidence } from "../../src/modules/answer/evidence";
import { holdsAnswerType } from "../../src/modules/answer/answer-type";
import { brainOf, titledByHeading } from "../support/sources";

const COMMANDS = `# Command reference

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

const CONFIGURATION = `# Configuration

tern reads its settings from \`~/.config/tern/config.toml\`, then from environment variables, then from flags. A flag always wins over an environment variable, and an environment variable wins over the file.

## Credentials

Never put secret keys in config.toml if the file is shared.`;

const TROUBLESHOOTING = `# Troubleshooting

## Slow uploads

Large files upload in parts of \`part_size\`. On a slow or shared link, lower the concurrency to 2 and set a \`bandwidth_limit\`.

## Logs

Logs rotate daily and are kept for a week. Logs are written to /var/log/tern/tern.log by default.`;

const CHANGELOG = `# Changelog

## 2.4.1
- Fixed a crash when an ignore line ended with a backslash.
- The doctor command now checks the clock skew.`;

const FAQ = `# FAQ

## Is tern free?

Yes. tern is open source under the Apache 2.0 license. There is no paid edition.

## Does tern encrypt my files?

tern always uses HTTPS in transit. For encryption at rest, enable server-side encryption on the bucket, or pass \`--sse aws:kms\` to use a KMS key.`;

const ask = brainOf("tern docs", titledByHeading(COMMANDS, CONFIGURATION, TROUBLESHOOTING, CHANGELOG, FAQ));

test("an -ly adverb stems as its adjective when English writes it, and only then", () => {
  const same: [string, string][] = [["recursively", "recursive"], ["easily", "easy"], ["automatically", "automatic"], ["possibly", "possible"], ["usually", "usual"], ["weekly", "week"]];
  for (const [adverb, adjective] of same) expect(stem(adverb)).toBe(stem(adjective));
  // Words that only look like adverbs, and adverbs that say something else than their adjective.
  // "Spendly" and "Grammarly" are names: an adverb English does not write is one only when its adjective looks like one.
  const apart: [string, string][] = [["supply", "supp"], ["simply", "simp"], ["family", "fam"], ["early", "ear"], ["hardly", "hard"], ["likely", "like"], ["only", "on"], ["spendly", "spend"], ["grammarly", "grammar"]];
  for (const [word, other] of apart) expect(stem(word)).not.toBe(stem(other));
});

test("an adverb is read as its adjective: 'list files recursively' finds '--recursive'", async () => {
  // Was thin: "recursively" and "recursive" were two words to the answerer (the index's stemmer joined them).
  const body = await ask("How do I list files recursively?");
  expect(body.thin).toBe(false);
  expect(body.answer).toContain("Add `--recursive` to list every level.");
});

test("'how do I fix X' asks for X's remedy: 'fix' is no action a page must name", async () => {
  // Was "Fixed a crash when an ignore line ended with a backslash.": "fix" was ranked as the action asked for.
  const body = await ask("How do I fix slow uploads?");
  expect(body.thin).toBe(false);
  expect(body.answer).toContain("lower the concurrency to 2");
  expect(body.answer).not.toContain("Fixed a crash");
});

test("a path answers 'where': the sentence saying where logs are written, not only that they rotate", async () => {
  const body = await ask("Where are the logs?");
  expect(body.thin).toBe(false);
  expect(body.answer).toContain("/var/log/tern/tern.log");
  expect(body.answer).not.toContain("rotate daily");
  // Said first, before sentences naming the file without saying where it is.
  const config = await ask("Where is the config file?");
  expect(config.answer.startsWith("tern reads its settings from `~/.config/tern/config.toml`")).toBe(true);
});

test("a sentence about 'it' is read with the one saying what it is", async () => {
  // Was "Run it first when something fails." alone: what to run was the sentence before.
  const body = await ask("What should I run first when something fails?");
  expect(body.thin).toBe(false);
  expect(body.answer).toContain("`tern doctor` checks the configuration, the credentials and the clock skew, and prints a report. Run it first when something fails.");
});

test("a contraction is no term: 'don't' leaves no 'don', and 'won' stays a word", () => {
  expect(queryTerms("What happens if I don't pass --delete?")).toEqual(["happens", "pass", "delete"]);
  expect(queryTerms("I'll go, you're late, we've seen, I'd say, I can’t log in")).toEqual(["go", "late", "seen", "say", "log"]);
  expect(queryTerms("Who won the cup? Who won't?")).toEqual(["won", "cup"]);
});

test("'what happens if I don't …' is answered by what the option does, not thin", async () => {
  // Was thin: "don" (of "don't") was the question's heaviest term, and "happens" a word the page need not say.
  const body = await ask("What happens if I don't pass --delete?");
  expect(body.thin).toBe(false);
  expect(body.answer).toContain("`--delete`: remove files from DEST that are not in SOURCE.");
});

test("'what happens if …' asks for a consequence: 'happens' weighs nothing, as a page need not say it", () => {
  const termsWeighed = (question: string) => {
    const page = { pageId: 1, brainId: "b", sourceId: "s1", slug: "p1", title: "Command reference", markdown: "`--delete`: remove files from DEST that are not in SOURCE.", updatedAt: 0, score: 1, lexical: 1, cosine: null };
    const stats = { pageCount: 1, documentFrequency: new Map<string, number>() };
    return weighEvidence(question, { query: question, terms: queryTerms(question), mode: "lexical", pages: [page], stats }, stats).terms;
  };
  expect(termsWeighed("What happens if I don't pass --delete?")).toEqual(["pass", "delete"]);
  expect(termsWeighed("What happened to the deleted files?")).toEqual(["deleted", "files"]);
  // Not a consequence asked for: the word is what is asked about.
  expect(termsWeighed("Which events happen daily?")).toContain("happen");
});

test("an API's endpoint after its method is no place; a file's path is", () => {
  const place = (text: string) => holdsAnswerType(text, "place", new Set());
  expect(place("`POST /v1/orders` creates an order.")).toBe(false);
  expect(place("to read one, `GET /v1/orders/{id}` returns it.")).toBe(false);
  expect(place("Logs are written to /var/log/tern/tern.log by default.")).toBe(true);
  expect(place("The config lives in `~/.config/tern/config.toml`.")).toBe(true);
  expect(place("Download it from https://example.com/tern.")).toBe(true);
});
