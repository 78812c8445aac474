import type { ExtractionLimits } from "./budget.ts";
import { MAX_COLUMNS, RowCounter, workbookMarkdown } from "./extract-table.ts";
import { odfText, readOdf } from "./odf.ts";
import { pickTitle, titleFromName } from "./titles.ts";
import type { DocumentSource, ExtractedDocument as Extracted } from "./types.ts";
import { attrOf, childrenOf, findAll, tagOf, type XmlNode } from "./xml-tree.ts";

/** Where rows sit in a table: directly, or inside header-row and row-group wrappers. */
const ROW_GROUPS = new Set(["table-header-rows", "table-rows", "table-row-group"]);

/**
 * An OpenDocument spreadsheet: each table:table a sheet. A cell reads as its shown text (a formula's last
 * value, formatted), else its value attribute. Repeated rows and columns (how ODS writes a run of equal
 * ones, up to the sheet's end) are expanded only where they hold text, and count against the row limit.
 */
export function extractOds(bytes: Uint8Array, source: DocumentSource, limits: ExtractionLimits): Extracted {
  const odf = readOdf(bytes, limits, "ODS");
  const counter = new RowCounter(limits.maxRows);
  const sheets = findAll(odf.content, "table").map((table) => ({ name: attrOf(table, "name") ?? "Sheet", rows: rowsOf(childrenOf(table), counter) }));
  return { title: pickTitle(odf.title, titleFromName(source.filename, source.url)), markdown: workbookMarkdown(sheets), pagePerSection: true };
}

function rowsOf(nodes: XmlNode[], counter: RowCounter, out: string[][] = []): string[][] {
  for (const node of nodes) {
    const tag = tagOf(node);
    if (ROW_GROUPS.has(tag)) rowsOf(childrenOf(node), counter, out);
    if (tag !== "table-row") continue;
    const cells = cellsOf(childrenOf(node));
    if (!cells.some((c) => c !== "")) continue; // an empty run, often to the sheet's last row
    const repeat = Math.max(1, Number(attrOf(node, "number-rows-repeated") ?? 1) || 1);
    counter.add(repeat);
    for (let i = 0; i < repeat; i++) out.push(cells);
  }
  return out;
}

function cellsOf(nodes: XmlNode[]): string[] {
  const cells: string[] = [];
  for (const node of nodes) {
    const tag = tagOf(node);
    if (tag !== "table-cell" && tag !== "covered-table-cell") continue;
    const text = cellText(node);
    const repeat = Math.max(1, Number(attrOf(node, "number-columns-repeated") ?? 1) || 1);
    for (let i = 0; i < repeat && cells.length <= MAX_COLUMNS; i++) cells.push(text);
    if (cells.length > MAX_COLUMNS) break;
  }
  return cells;
}

function cellText(cell: XmlNode): string {
  const shown = childrenOf(cell).filter((n) => tagOf(n) === "p").map((p) => odfText(childrenOf(p))).join(" ").trim();
  if (shown) return shown;
  return attrOf(cell, "value") ?? attrOf(cell, "date-value") ?? attrOf(cell, "boolean-value") ?? attrOf(cell, "string-value") ?? "";
}
