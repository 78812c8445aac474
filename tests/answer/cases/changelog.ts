// A product's changelog, one heading per release. Run by tests/answer/cases.test.ts.
import type { AnswerTable } from "./table";

export const CHANGELOG_TABLE: AnswerTable = {
  brain: "Ledgerly",
  pages: {
    "Ledgerly changelog": `# Ledgerly changelog

## 4.2.0 (2026-10-14)

- Added bank feeds for Monzo and Starling.
- Fixed a bug where VAT returns rounded the total down.

## 4.1.0 (2026-08-02)

- The mobile app now supports receipt scanning.
- Removed the legacy CSV importer; use the new importer under Settings > Import.`,
  },
  cases: [
    // Was the item alone: which release it came in was only the heading's.
    { name: "'which version' is answered by the release heading its item sits under", question: "Which version added receipt scanning?", contains: ["4.1.0 (2026-08-02): The mobile app now supports receipt scanning."] },
    { name: "'in which release' too", question: "In which release was the CSV importer removed?", contains: ["4.1.0 (2026-08-02): Removed the legacy CSV importer"] },
    // Was thin: no item says "released"; the heading's date does.
    { name: "'when was it released?' is the date of the release's heading", question: "When was 4.2.0 released?", thin: false, startsWith: "4.2.0 (2026-10-14): Added bank feeds for Monzo and Starling." },
  ],
};

// Versions out of text order: 4.10.0 is newer than 4.9.1, though "4.9" sorts after "4.1" as text.
export const RELEASES_TABLE: AnswerTable = {
  brain: "Ledgerly releases",
  pages: {
    "Ledgerly changelog": `# Ledgerly changelog

## 4.9.1 (2026-10-14)

- Added bank feeds for Monzo and Starling.

## 4.10.0 (2026-11-20)

- Added multi-currency invoices.

## 4.1.0 (2026-08-02)

- The mobile app now supports receipt scanning.`,
  },
  cases: [
    // Was thin: no page says "latest" or "version".
    { name: "'the latest version' is the newest release heading, by its number", question: "What is the latest version?", thin: false, startsWith: "4.10.0 (2026-11-20): Added multi-currency invoices." },
    { name: "'the current release' is the newest too", question: "What changed in the current release?", startsWith: "4.10.0 (2026-11-20):" },
  ],
};
