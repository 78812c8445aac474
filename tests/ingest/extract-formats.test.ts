// Issue 60, the readers of the new formats without a server: which format a zip is, by what it holds; a long
// sheet cut into sections of bounded rows that each repeat the header; what a cell reads as; the deck's and
// the book's own order, not their files'.
import { describe, expect, test } from "bun:test";
import { strToU8, zipSync } from "fflate";
import { DEFAULT_EXTRACTION_BUDGET, extractDocument, IngestError } from "../../src/ingest";
import { detectKind } from "../../src/ingest/detect-type";
import { ROWS_PER_SECTION, sheetMarkdown } from "../../src/ingest/extract-table";
import { cellValue, countRowTags } from "../../src/ingest/extract-xlsx";
import { MEDIA, makeEpub, makeOds, makeOdt, makePptx, makeXlsx } from "../support/office-files";

describe("a zip is told apart by what it holds", () => {
  test("its mimetype entry or [Content_Types].xml decides, not its name or label", async () => {
    const xlsx = await makeXlsx({ A: [["x"]] });
    expect(detectKind({ bytes: xlsx, contentType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document", filename: "a.docx" })).toBe("xlsx");
    expect(detectKind({ bytes: makePptx([{ title: "T", bullets: [] }]), contentType: "application/octet-stream" })).toBe("pptx");
    expect(detectKind({ bytes: makeEpub("B", { C: ["p"] }), contentType: "application/zip", filename: "book.zip" })).toBe("epub");
    expect(detectKind({ bytes: makeOdt("T", ["p"]), contentType: "", filename: "sheet.ods" })).toBe("odt");
    expect(detectKind({ bytes: makeOds({ S: [["a"]] }), contentType: MEDIA.odt })).toBe("ods");
  });

  test("a zip that names no format falls back to its label; CSV and TSV by label or, as text/plain, by extension", () => {
    const plainZip = zipSync({ "notes.txt": strToU8("hello") });
    expect(detectKind({ bytes: plainZip, contentType: MEDIA.pptx })).toBe("pptx");
    const text = strToU8("a,b\n1,2\n");
    expect(detectKind({ bytes: text, contentType: "text/csv" })).toBe("csv");
    expect(detectKind({ bytes: text, contentType: "text/plain", filename: "a.tsv" })).toBe("tsv");
    expect(detectKind({ bytes: text, contentType: "application/vnd.ms-excel", filename: "export.csv" })).toBe("csv");
  });

  test("a legacy Office file is refused with what to save it as", () => {
    const ole = new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]);
    expect(() => detectKind({ bytes: ole, contentType: "application/vnd.ms-excel", filename: "old.xls" })).toThrow(/save it as \.docx, \.xlsx or \.pptx/);
  });
});

describe("sheets as tables", () => {
  test("a long sheet is cut into sections of bounded rows, each repeating the header", () => {
    const rows = [["Item", "Count"], ...Array.from({ length: 250 }, (_, i) => [`item ${i + 1}`, String(i)])];
    const markdown = sheetMarkdown("Stock", rows);
    const headings = markdown.split("\n").filter((l) => l.startsWith("## "));
    expect(headings).toEqual(["## Stock (rows 1–100)", "## Stock (rows 101–200)", "## Stock (rows 201–250)"]);
    expect(markdown.match(/^\| Item \| Count \|$/gm)).toHaveLength(3);
    expect(ROWS_PER_SECTION).toBe(100);
  });

  test("empty rows and trailing empty columns go; an empty header cell is named", () => {
    expect(sheetMarkdown(undefined, [["", "Name", ""], [], ["1", "Ada", ""], ["", "", ""]])).toBe("| Column 1 | Name |\n| --- | --- |\n| 1 | Ada |");
  });

  test("a cell reads as its cached formula result, its day, its text", () => {
    expect(cellValue({ formula: "A1*2", result: 0.1 + 0.2 } as any)).toBe("0.3");
    expect(cellValue({ formula: "NOW()" } as any)).toBe("");
    expect(cellValue(new Date(Date.UTC(2026, 2, 17)))).toBe("2026-03-17");
    expect(cellValue({ richText: [{ text: "Net " }, { text: "sales" }] } as any)).toBe("Net sales");
    expect(cellValue({ text: "Wiki", hyperlink: "https://example.com" } as any)).toBe("Wiki");
    expect(cellValue({ error: "#DIV/0!" } as any)).toBe("#DIV/0!");
    expect(cellValue(true)).toBe("TRUE");
  });

  test("rows are counted on the sheet's bytes, any prefix", () => {
    expect(countRowTags(strToU8('<sheetData><row r="1"><c/></row><x:row r="2"/><rowBreaks/></sheetData>'))).toBe(2);
  });

  test("the row limit holds across a workbook's sheets", async () => {
    const xlsx = await makeXlsx({ A: [["h"], ["1"], ["2"]], B: [["h"], ["3"]] });
    const limits = { ...DEFAULT_EXTRACTION_BUDGET, maxExpandedBytes: 1e8, maxPartBytes: 1e8, maxEntries: 100, maxPages: 10, maxRows: 4 };
    const error = await extractDocument({ bytes: xlsx, contentType: MEDIA.xlsx }, limits).catch((e) => e);
    expect(error).toBeInstanceOf(IngestError);
    expect(error).toMatchObject({ code: "document_too_large", message: expect.stringContaining("more than 4 rows") });
  });
});

describe("decks and books keep their own order", () => {
  test("slides in presentation.xml's order (files named the other way round), notes beside", async () => {
    const doc = await extractDocument({ bytes: makePptx([{ title: "First", bullets: ["a"] }, { title: "Second", bullets: ["b", "c"], notes: "Say c twice." }]), contentType: MEDIA.pptx });
    expect(doc.markdown).toBe("## First\n\na\n\n## Second\n\n- b\n- c\n\nSpeaker notes: Say c twice.");
    expect(doc.title).toBe("First");
  });

  test("chapters in spine order (files named the other way round), each its own section", async () => {
    const epub = makeEpub("Book", { Opening: ["One."], Closing: ["Two."] });
    const doc = await extractDocument({ bytes: epub, contentType: MEDIA.epub });
    expect(doc.markdown).toBe("# Opening\n\nOne.\n\n# Closing\n\nTwo.");
    expect(doc.title).toBe("Book");
  });
});

describe("OpenDocument text", () => {
  test("a table keeps its header; a footnote reads in brackets; a comment and repeated spaces are no text", async () => {
    const ns = 'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"';
    const cell = (t: string) => `<table:table-cell><text:p>${t}</text:p></table:table-cell>`;
    const content = `<?xml version="1.0"?><office:document-content ${ns}><office:body><office:text><text:h text:outline-level="1">Rota</text:h><text:p>Cover<text:s text:c="3"/>is arranged<text:note><text:note-citation>1</text:note-citation><text:note-body><text:p>by the lead</text:p></text:note-body></text:note>.<office:annotation><text:p>check this</text:p></office:annotation></text:p><table:table><table:table-header-rows><table:table-row>${cell("Day") + cell("Person")}</table:table-row></table:table-header-rows><table:table-row>${cell("Monday") + cell("Ines")}</table:table-row></table:table></office:text></office:body></office:document-content>`;
    const odt = zipSync({ mimetype: [strToU8(MEDIA.odt), { level: 0 }], "content.xml": strToU8(content) });
    const doc = await extractDocument({ bytes: odt, contentType: "application/octet-stream" });
    expect(doc.markdown).toBe("# Rota\n\nCover is arranged (by the lead).\n\n| Day | Person |\n| --- | --- |\n| Monday | Ines |");
    expect(doc.title).toBe("Rota");
  });
});

