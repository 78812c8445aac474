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
