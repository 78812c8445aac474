// Issue 60, bad inputs of the new formats, over real HTTP: a CSV and an XLSX of a million rows, zip bombs
// dressed as an XLSX, a PPTX and an EPUB, and a corrupt file of each type each fail for good (one attempt) with
// a reason in plain words, while the server answers and a good document uploaded beside them is read; a CSV
// in Windows-1252 with ragged rows is read as it was meant. The bombs here inflate past the 100 MB part
// limit (tests/e2e/hardening/bombs.test.ts feeds 1 GiB ones to a child process).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { strToU8, zipSync } from "fflate";
import { MEDIA, epubBomb, makeXlsx, pptxBomb, xlsxBomb } from "../support/office-files";
import { startTestServer, type TestServer } from "../support/server";
import { newBrain, pagesOf, uploadFile, waitForSource } from "../support/sources";

let s: TestServer;
let brainId: string;
beforeAll(async () => {
  s = await startTestServer();
  brainId = await newBrain(s, "Bad inputs");
});
afterAll(() => s.close());

const upload = (filename: string, contentType: string, bytes: Uint8Array) => uploadFile(s, brainId, filename, contentType, bytes);

/** The source failed for good: its reason, one attempt, the job not retried; and the server still answers. */
async function expectFailedForGood(sourceId: string, reason: RegExp) {
  const source = await waitForSource(s, brainId, sourceId);
  expect({ status: source.status, error: source.error }).toEqual({ status: "failed", error: expect.stringMatching(reason) });
  expect(source.error).not.toMatch(/retrying|undefined|\[object/);
  const [job] = (await s.ctx.database.client.execute({ sql: "SELECT status, attempts FROM jobs WHERE subject_id = ? AND kind = 'ingest-source'", args: [sourceId] })).rows;
  expect({ status: job!.status, attempts: Number(job!.attempts) }).toEqual({ status: "failed", attempts: 1 });
  expect((await s.api("/api/health", { key: null })).status).toBe(200);
}

const odfZip = (mimetype: string, content: string) => zipSync({ mimetype: [strToU8(mimetype), { level: 0 }], "content.xml": strToU8(content) });

describe("a million rows", () => {
  test("a CSV of a million rows fails with the row limit, streamed: the parse stops at the limit", async () => {
    const thousand = Array.from({ length: 1000 }, (_, i) => `${i},row ${i},${i % 977}\n`).join("");
    const csv = `id,name,amount\n${thousand.repeat(1000)}`;
    await expectFailedForGood(await upload("ledger.csv", MEDIA.csv, strToU8(csv)), /^the spreadsheet has more than 50,000 rows \(split it, or raise BRAINBOX_EXTRACT_MAX_ROWS\)$/);
  });

  test("an XLSX of a million rows (its sheet within the size limits) is refused before its cells are built", async () => {
    await expectFailedForGood(await upload("ledger.xlsx", MEDIA.xlsx, xlsxBomb(50)), /^the spreadsheet has more than 50,000 rows/);
  });
});

describe("zip bombs dressed as the new formats", () => {
  for (const [name, type, bomb, part] of [
    ["bomb.xlsx", MEDIA.xlsx, xlsxBomb, "xl/worksheets/sheet1.xml"],
    ["bomb.pptx", MEDIA.pptx, pptxBomb, "ppt/slides/slide1.xml"],
    ["bomb.epub", MEDIA.epub, epubBomb, "OEBPS/text/part1.xhtml"],
  ] as const) {
    test(`${name}: one entry inflating to 200 MiB, and saying less, stops at the part limit`, async () => {
      await expectFailedForGood(await upload(name, type, bomb(200, "understated")), new RegExp(`^one part of the document \\(${part.replace(/[./]/g, "\\$&")}\\) expands to more than 100 MB$`));
    });
  }
});

describe("corrupt files of each type", () => {
  test("each fails with its reason; a good workbook uploaded beside them is read", async () => {
    const good = await makeXlsx({ Budget: [["Team", "Budget"], ["Design", 1200]] }, "Team budgets");
    const cases: [string, string, Uint8Array, RegExp][] = [
      ["cut.xlsx", MEDIA.xlsx, good.subarray(0, Math.floor(good.length / 2)), /^could not read the zip container: it is not a zip container/],
      ["text.pptx", MEDIA.pptx, strToU8("these are not slides"), /^could not read the zip container: it is not a zip container/],
      ["empty.pptx", MEDIA.pptx, zipSync({ "[Content_Types].xml": strToU8("<Types/>") }), /^could not read the PPTX: it has no ppt\/presentation\.xml$/],
      ["no-container.epub", MEDIA.epub, zipSync({ mimetype: [strToU8("application/epub+zip"), { level: 0 }] }), /^could not read the EPUB: it has no META-INF\/container\.xml$/],
      ["broken.odt", MEDIA.odt, odfZip(MEDIA.odt, "<office:document-content><office:body><office:text><text:p>Half</office:body>"), /^could not read the ODT's content\.xml: /],
      ["entities.ods", MEDIA.ods, odfZip(MEDIA.ods, '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaaaaaaaa">]><x>&a;</x>'), /^could not read the ODS's content\.xml: it declares XML entities$/],
      ["binary.csv", MEDIA.csv, new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d, 1, 2, 3]), /^the CSV file is binary, not text$/],
    ];
    const ids = await Promise.all(cases.map(([name, type, bytes]) => upload(name, type, bytes)));
    const goodId = await upload("budgets.xlsx", MEDIA.xlsx, good);
    for (const [i, [, , , reason]] of cases.entries()) await expectFailedForGood(ids[i]!, reason);
    expect(await waitForSource(s, brainId, goodId)).toMatchObject({ status: "ready", title: "Team budgets", error: null });
  });
});

describe("a CSV in the wrong encoding, with ragged rows", () => {
  test("Windows-1252 bytes read as such; short rows padded, a long row's extra cell kept under a named column", async () => {
    const bytes = new Uint8Array([...new TextEncoder().encode("Office;City;Desks\nHQ;"), 0x5a, 0xfc, 0x72, 0x69, 0x63, 0x68, ...new TextEncoder().encode(";40\nLab;M"), 0xe1, 0x6c, 0x61, 0x67, 0x61, ...new TextEncoder().encode("\nDepot;Porto;12;night shift\n")]);
    const id = await upload("offices.csv", "text/csv", bytes);
    expect(await waitForSource(s, brainId, id)).toMatchObject({ status: "ready" });
    const [page] = (await pagesOf(s, brainId)).filter((p) => p.source_id === id);
    expect(page!.markdown).toContain("| Office | City | Desks | Column 4 |");
    expect(page!.markdown).toContain("| HQ | Zürich | 40 |  |");
    expect(page!.markdown).toContain("| Lab | Málaga |  |  |");
    expect(page!.markdown).toContain("| Depot | Porto | 12 | night shift |");
    expect(page!.markdown).not.toContain("\uFFFD");
  });
});
