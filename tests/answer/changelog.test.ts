// A product's changelog, one heading per release. Asked over real HTTP; the page is written by the test and
// answers are checked for what they should quote.
import { expect, test } from "bun:test";
import { brainOf, titledByHeading } from "../support/sources";

const CHANGELOG = `# Ledgerly changelog

## 4.2.0 (2026-10-14)

- Added bank feeds for Monzo and Starling.
- Fixed a bug where VAT returns rounded the total down.

## 4.1.0 (2026-08-02)

- The mobile app now supports receipt scanning.
- Removed the legacy CSV importer; use the new importer under Settings > Import.`;

const ask = brainOf("Ledgerly", titledByHeading(CHANGELOG));

// Versions out of text order: 4.10.0 is newer than 4.9.1, though "4.9" sorts after "4.1" as text.
const newer = brainOf(
  "Ledgerly releases",
  titledByHeading(`# Ledgerly changelog

## 4.9.1 (2026-10-14)

- Added bank feeds for Monzo and Starling.

## 4.10.0 (2026-11-20)

- Added multi-currency invoices.

## 4.1.0 (2026-08-02)

- The mobile app now supports receipt scanning.`),
);

test("'which version' is answered by the release heading its item sits under", async () => {
  // Was the item alone: which release it came in was only the heading's.
  const scanning = await ask("Which version added receipt scanning?");
  expect(scanning.answer).toContain("4.1.0 (2026-08-02): The mobile app now supports receipt scanning.");
  const importer = await ask("In which release was the CSV importer removed?");
  expect(importer.answer).toContain("4.1.0 (2026-08-02): Removed the legacy CSV importer");
});

test("'when was it released?' is the date of the release's heading", async () => {
  // Was thin: no item says "released"; the heading's date does.
  const body = await ask("When was 4.2.0 released?");
  expect(body.thin).toBe(false);
  expect(body.answer.startsWith("4.2.0 (2026-10-14): Added bank feeds for Monzo and Starling.")).toBe(true);
});

test("'the latest version' is the newest release heading, by its number", async () => {
  // Was thin: no page says "latest" or "version".
  const body = await newer("What is the latest version?");
  expect(body.thin).toBe(false);
  expect(body.answer.startsWith("4.10.0 (2026-11-20): Added multi-currency invoices.")).toBe(true);
  const current = await newer("What changed in the current release?");
  expect(current.answer.startsWith("4.10.0 (2026-11-20):")).toBe(true);
});
