// What every spreadsheet reader (XLSX, ODS, CSV, TSV) shares: a sheet's rows as Markdown tables whose first
// row is the header, cut into sections of bounded rows that each repeat the header, so a page made of any one
// section still reads its rows with their headers (the answerer quotes "Region: North; Revenue: 1200").
import { tooLarge } from "./budget.ts";

/** Rows of one section: small enough that a section fits a wiki page, so no table is cut mid-page. */
export const ROWS_PER_SECTION = 100;
const SECTION_CHARS = 3000;
/** Columns past this are left out (a sheet of 16,384 mostly empty columns is no table to read). */
export const MAX_COLUMNS = 200;

/** Counts a document's rows, all sheets together; throws `document_too_large` past the limit. */
export class RowCounter {
  private rows = 0;

  constructor(private readonly maxRows: number) {}

  add(count = 1): void {
    this.rows += count;
    if (this.rows > this.maxRows)
      throw tooLarge(`the spreadsheet has more than ${this.maxRows.toLocaleString("en-US")} rows (split it, or raise BRAINBOX_EXTRACT_MAX_ROWS)`);
  }
}

/** A cell as one line of a table: whitespace collapsed, pipes escaped. */
export function cellText(value: string): string {
  return value.replace(/\s+/g, " ").trim().replace(/\|/g, "\\|");
}

/**
 * A sheet as Markdown: `## name` over its table (first non-empty row the header); a long sheet is cut into
 * sections "name (rows 101–200)", each with the header again. Empty rows and trailing empty columns go;
 * header cells left empty are named "Column N". Nothing at all when the sheet holds no text.
 */
export function sheetMarkdown(name: string | undefined, rawRows: string[][]): string {
  const rows = rawRows.map((r) => r.slice(0, MAX_COLUMNS).map(cellText)).filter((r) => r.some((c) => c !== ""));
  if (rows.length === 0) return "";
  const width = rows.reduce((widest, r) => Math.max(widest, lastFilled(r)), 0);
  const [head, ...body] = rows.map((r) => Array.from({ length: width }, (_, i) => r[i] ?? ""));
  const header = head!.map((c, i) => c || `Column ${i + 1}`);
  const line = (cells: string[]) => `| ${cells.join(" | ")} |`;
  const top = [line(header), line(header.map(() => "---"))].join("\n");
  const sections = chunks(body.map(line), top.length);
  const wide = rawRows.some((r) => lastFilled(r) > MAX_COLUMNS) ? `\n\n(Columns past the ${MAX_COLUMNS}th are left out.)` : "";
  if (sections.length <= 1) return `${name ? `## ${name}\n\n` : ""}${top}${sections[0]?.lines.length ? `\n${sections[0].lines.join("\n")}` : ""}${wide}`;
  return sections
    .map((s) => `## ${name ? `${name} (rows` : "Rows"} ${s.from}–${s.from + s.lines.length - 1}${name ? ")" : ""}\n\n${top}\n${s.lines.join("\n")}${wide}`)
    .join("\n\n");
}

function lastFilled(row: string[]): number {
  let end = row.length;
  while (end > 0 && row[end - 1] === "") end--;
  return end;
}

function chunks(lines: string[], headerChars: number): { from: number; lines: string[] }[] {
  const out: { from: number; lines: string[] }[] = [];
  let current: string[] = [];
  let chars = headerChars;
  let from = 1;
  for (const [i, l] of lines.entries()) {
    if (current.length > 0 && (current.length >= ROWS_PER_SECTION || chars + l.length + 1 > SECTION_CHARS)) {
      out.push({ from, lines: current });
      current = [];
      chars = headerChars;
      from = i + 1;
    }
    current.push(l);
    chars += l.length + 1;
  }
  if (current.length > 0) out.push({ from, lines: current });
  return out;
}

/** A workbook's sheets under its title; sheets with no text left out. */
export function workbookMarkdown(sheets: { name: string; rows: string[][] }[]): string {
  const named = sheets.length > 1 || (sheets[0] && !/^(?:sheet|tabelle|feuille|hoja)\s*1$/i.test(sheets[0].name));
  return sheets
    .map((s) => sheetMarkdown(named ? s.name : undefined, s.rows))
    .filter(Boolean)
    .join("\n\n");
}
