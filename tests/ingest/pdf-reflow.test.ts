// A PDF's lines rebuilt into paragraphs: hyphenated words rejoined, a heading apart from the paragraph under
// it, a paragraph's last line ending it, bullets as list items; and the same through a real PDF's extraction.
import { describe, expect, test } from "bun:test";
import { extractDocument } from "../../src/ingest";
import { reflowPdfPage } from "../../src/ingest/pdf-reflow";
import { buildPdf } from "../support/documents";

const PLAN = [
  "Capacity plan for the Trino cluster",
  "The cluster runs six workers with 64 GB of memory each. Peak con-",
  "currency reached 140 queries at month end, when finance closes",
  "the books. We recommend two more workers before the finance",
  "mart goes live in September.",
  "Risks",
  "A late general ledger extract would push the finance mart back to",
  "October, as it did in 2024 when the extracts were two weeks late.",
];

describe("reflowPdfPage", () => {
  test("a hyphenated word is one word again; wrapped lines are one paragraph; a heading stands apart", () => {
    expect(reflowPdfPage(PLAN.join("\n")).split("\n\n")).toEqual([
      "Capacity plan for the Trino cluster",
      "The cluster runs six workers with 64 GB of memory each. Peak concurrency reached 140 queries at month end, when finance closes the books. We recommend two more workers before the finance mart goes live in September.",
      "Risks",
      "A late general ledger extract would push the finance mart back to October, as it did in 2024 when the extracts were two weeks late.",
    ]);
  });

  test("a full line ending before a capitalized word runs on (a name wrapped to the next line)", () => {
    const text = ["The migration was approved by the steering committee and led by", "Marta Okonkwo, who reported to the board every month until the", "switch in March."].join("\n");
    expect(reflowPdfPage(text)).toBe("The migration was approved by the steering committee and led by Marta Okonkwo, who reported to the board every month until the switch in March.");
  });

  test("bullets and numbered lines are list items; a hyphen before a capital stays, joined (a compound)", () => {
    const text = ["Before the switch, check these items on every table of the mart:", "• row counts match", "• checksums match", "1. freeze the schema", "2. run the load", "The historians of the institute read the newly opened post-", "Soviet archives for the first time in 1992."].join("\n");
    const out = reflowPdfPage(text);
    expect(out).toContain("- row counts match\n\n- checksums match");
    expect(out).toContain("1. freeze the schema\n\n2. run the load");
    expect(out).toContain("the newly opened post-Soviet archives for the first time in 1992.");
  });

  test("a heading after a full line that ends a sentence stands apart (\"...longer flights. Hotels\")", () => {
    const text = [
      "Flights from Lisbon to the islands are cheapest on Tuesdays, and booking eight weeks",
      "ahead saves the most on the longer routes, so plan early for the longer flights.",
      "Hotels",
      "Most hotels in the old town fill up in June; the guesthouses near the river are quieter",
      "and cost about half as much for the same room size.",
    ].join("\n");
    expect(reflowPdfPage(text).split("\n\n")).toEqual([
      "Flights from Lisbon to the islands are cheapest on Tuesdays, and booking eight weeks ahead saves the most on the longer routes, so plan early for the longer flights.",
      "Hotels",
      "Most hotels in the old town fill up in June; the guesthouses near the river are quieter and cost about half as much for the same room size.",
    ]);
  });

  test("a wrapped sentence whose next line is short and capitalized still runs on", () => {
    const text = ["The ferry leaves the harbour at nine and reaches the island in two hours. It is run by", "Atlantic Lines", "until the end of October."].join("\n");
    expect(reflowPdfPage(text)).toBe("The ferry leaves the harbour at nine and reaches the island in two hours. It is run by Atlantic Lines until the end of October.");
  });

  test("blank lines stay paragraph breaks; an empty page is empty", () => {
    expect(reflowPdfPage("First paragraph.\n\nSecond paragraph.")).toBe("First paragraph.\n\nSecond paragraph.");
    expect(reflowPdfPage(" \n \n")).toBe("");
  });
});

test("an uploaded PDF's sentences are whole and its hyphenated words searchable", async () => {
  const doc = await extractDocument({ bytes: buildPdf(PLAN, "Capacity plan"), contentType: "application/pdf" });
  expect(doc.title).toBe("Capacity plan");
  expect(doc.markdown).toContain("Peak concurrency reached 140 queries at month end");
  expect(doc.markdown).toContain("Capacity plan for the Trino cluster\n\nThe cluster runs six workers");
});

test("a PDF's headings stand apart by their font size or the gap above them, not glued to the paragraph before", async () => {
  const body = (text: string, gap = 14) => ({ text, size: 11, gap });
  const bytes = buildPdf([
    { text: "Travel notes for Portugal", size: 20 },
    body("Flights from Lisbon to the islands are cheapest on Tuesdays, and booking eight", 30),
    body("weeks ahead saves the most on the routes, so plan early for the longer flights."),
    // Too long to be a heading by its words alone: its size tells.
    { text: "How to stay in Lisbon and Porto on a budget", size: 16, gap: 26 },
    body("Most hotels in the old town fill up in June, and the guesthouses near the river", 22),
    body("are quieter and cost about half as much for the same room size in the summer."),
    // Same size, a full line before it: only the gap says a paragraph starts.
    body("Trams and the metro cover the centre, and a day ticket pays for itself after four", 26),
    body("rides, though the famous tram 28 is crowded from nine in the morning on."),
  ]);
  const doc = await extractDocument({ bytes, contentType: "application/pdf" });
  expect(doc.markdown.split("\n\n")).toEqual([
    "Travel notes for Portugal",
    "Flights from Lisbon to the islands are cheapest on Tuesdays, and booking eight weeks ahead saves the most on the routes, so plan early for the longer flights.",
    "How to stay in Lisbon and Porto on a budget",
    "Most hotels in the old town fill up in June, and the guesthouses near the river are quieter and cost about half as much for the same room size in the summer.",
    "Trams and the metro cover the centre, and a day ticket pays for itself after four rides, though the famous tram 28 is crowded from nine in the morning on.",
  ]);
});
