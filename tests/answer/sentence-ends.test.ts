// Answers quote whole sentences: a period after an initial or a short form ("Thomas A. Edison", "Dr. Brodie",
// "ext. 4410", "Fig. 2") does not end one. Found outside in: "Who is on call?" was answered
// "On-call engineer: Priya Nair (ext." and the number was lost.
// The runbook's answer is a table: tests/answer/cases/runbooks.ts.
import { expect, test } from "bun:test";
import { extractiveLead } from "../../src/concepts/lead";
import { withAbbreviationsJoined } from "../../src/lib/sentence-ends";
import { sentencesOf } from "../../src/modules/answer/sentences";

test("initials and short forms do not end a sentence; real ends still do", () => {
  const texts = (markdown: string) => sentencesOf(markdown).map((s) => s.text);
  expect(texts("On-call engineer: Priya Nair (ext. 4410). Call her first.")).toEqual(["On-call engineer: Priya Nair (ext. 4410).", "Call her first."]);
  expect(texts("Thomas A. Edison built it. Dr. Brodie kept it. See Fig. 2 for details.")).toEqual([
    "Thomas A. Edison built it.",
    "Dr. Brodie kept it.",
    "See Fig. 2 for details.",
  ]);
  expect(texts("Mr. Smith went to Washington. He met Mrs. Jones in St. Andrews.")).toEqual(["Mr. Smith went to Washington.", "He met Mrs. Jones in St. Andrews."]);
  expect(texts("The pump stops. 4 bar is the limit. Never exceed it!")).toEqual(["The pump stops.", "4 bar is the limit.", "Never exceed it!"]);
  // A day's ordinal before its month ("am 31. März") is a date, not a sentence's end; a number ending a sentence still ends it.
  expect(texts("Nicht genommener Urlaub verfällt am 31. März des Folgejahres. Anträge gehen an Personio.")).toEqual([
    "Nicht genommener Urlaub verfällt am 31. März des Folgejahres.",
    "Anträge gehen an Personio.",
  ]);
  expect(texts("The limit is 12. The pump stops.")).toEqual(["The limit is 12.", "The pump stops."]);
  // "No." is short for number only before one: a FAQ's "No." is a reply of its own.
  expect(texts("See No. 5 and Nos. 7 for details.")).toEqual(["See No. 5 and Nos. 7 for details."]);
  expect(texts("No. E-bikes are limited to 25 km/h by law.")).toEqual(["No.", "E-bikes are limited to 25 km/h by law."]);
});

test("the pages' leads split sentences the same way", () => {
  // extractiveLead's splitter (concepts/lead.ts) joins the same pieces back.
  expect(withAbbreviationsJoined(["Keeper Dr.", "Isla Brodie kept it.", "Call ext.", "4410 first.", "It needs vitamin C.", "The end."])).toEqual([
    "Keeper Dr. Isla Brodie kept it.",
    "Call ext. 4410 first.",
    "It needs vitamin C. The end.", // a lone capital before a period reads as an initial: one longer sentence, never a cut one
  ]);
  expect(extractiveLead("Dr. Isla Brodie kept the Skerry light. The Skerry light keepers rowed out in storms. Ferries call. Dr. Brodie logged every storm at the Skerry light.", "Skerry light")).not.toMatch(/^Isla|^Brodie/);
});
