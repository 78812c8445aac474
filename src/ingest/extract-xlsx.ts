import ExcelJS from "exceljs";
import type { ExtractionLimits } from "./budget.ts";
import { IngestError } from "./errors.ts";
import { RowCounter, workbookMarkdown } from "./extract-table.ts";
import { pickTitle, titleFromName } from "./titles.ts";
import type { DocumentSource, ExtractedDocument as Extracted } from "./types.ts";
import { rezip, unzipBounded } from "./zip-bounded.ts";

/** Pictures, embedded files and fonts say nothing a table does: left uninflated. */
const MEDIA = /^xl\/(?:media|embeddings|printerSettings)\/|\.(?:png|jpe?g|gif|bmp|tiff?|emf|wmf|svg|bin|ttf|otf)$/i;
const SHEET = /^xl\/worksheets\/[^/]+\.xml$/i;

/**
 * exceljs reads the workbook (formulas as the values they were last calculated to), given only the entries
 * unzipped within the limits; its rows are counted in the sheets' XML first, so a sheet of a million rows is
 * refused before exceljs builds a million rows of cells.
 */
export async function extractXlsx(bytes: Uint8Array, source: DocumentSource, limits: ExtractionLimits): Promise<Extracted> {
  const entries = unzipBounded(bytes, limits, (name) => !MEDIA.test(name));
  const rows = new RowCounter(limits.maxRows);
  for (const [name, data] of Object.entries(entries)) if (SHEET.test(name)) rows.add(countRowTags(data));
  const workbook = new ExcelJS.Workbook();
  try {
    const checked = rezip(entries);
    await workbook.xlsx.load(Buffer.from(checked.buffer, checked.byteOffset, checked.byteLength) as unknown as ArrayBuffer);
  } catch (error) {
    throw new IngestError("unreadable_document", `could not read the XLSX: ${(error as Error).message}`, { cause: error });
  }
  const sheets: { name: string; rows: string[][] }[] = [];
  workbook.eachSheet((sheet) => {
    if (sheet.state && sheet.state !== "visible") return; // a hidden sheet is a workbook's scratch space
    const cells: string[][] = [];
    sheet.eachRow((row) => {
      const line: string[] = [];
      for (let c = 1; c <= row.cellCount; c++) line.push(cellValue(row.getCell(c).value));
      cells.push(line);
    });
    sheets.push({ name: sheet.name, rows: cells });
  });
  return { title: pickTitle(workbook.title, titleFromName(source.filename, source.url)), markdown: workbookMarkdown(sheets), pagePerSection: true };
}

/** `<row` start tags (any namespace prefix) in a sheet's XML, counted on the bytes. */
export function countRowTags(xml: Uint8Array): number {
  let count = 0;
  for (let i = 1; i + 4 < xml.length; i++) {
    // "row" after "<" or a prefix's ":", before a space, ">" or "/"
    if (xml[i] !== 0x72 || xml[i + 1] !== 0x6f || xml[i + 2] !== 0x77) continue;
    const before = xml[i - 1];
    const after = xml[i + 3];
    if ((before === 0x3c || before === 0x3a) && (after === 0x20 || after === 0x3e || after === 0x2f || after === 0x0a || after === 0x0d || after === 0x09)) count++;
  }
  return count;
}

/** A cell as it reads: a formula's cached result, a date as its day, rich text and links as their text. */
export function cellValue(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return String(Number(value.toPrecision(15)));
  if (typeof value === "string") return value;
  if (typeof value === "boolean") return value ? "TRUE" : "FALSE";
  if (value instanceof Date) return isoDay(value);
  if ("result" in value) return cellValue(value.result as ExcelJS.CellValue);
  if ("formula" in value || "sharedFormula" in value) return ""; // never calculated: no value to show
  if ("richText" in value) return value.richText.map((r) => r.text).join("");
  if ("error" in value) return String(value.error);
  if ("text" in value) return cellValue(value.text as ExcelJS.CellValue);
  return "";
}

function isoDay(date: Date): string {
  if (Number.isNaN(date.getTime())) return "";
  const iso = date.toISOString();
  return iso.endsWith("T00:00:00.000Z") ? iso.slice(0, 10) : iso.slice(0, 16).replace("T", " ");
}
