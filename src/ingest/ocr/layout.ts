// Read lines back into reading order: boxes on one printed line (the detector splits a line at wide gaps)
// are joined left to right, printed lines run top to bottom, and the page's lines become paragraphs the way
// a PDF's text layer does (pdf-reflow.ts: a short line or a wider gap ends a paragraph, a larger line is a
// heading, a hyphenated word is rejoined). Positions are taken along the page's skew, so a slightly rotated
// scan still reads line by line.
import { reflowPdfPage, type PdfLine } from "../pdf-reflow.ts";
import type { ReadLine } from "./recognize.ts";

interface Placed {
  text: string;
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/** The page's lines as Markdown paragraphs. */
export function linesToMarkdown(lines: ReadLine[]): string {
  return reflowPdfPage(printedLines(lines));
}

export function printedLines(lines: ReadLine[]): PdfLine[] {
  const placed = lines.map(deskewed).sort((a, b) => a.top + a.bottom - (b.top + b.bottom));
  const rows: Placed[][] = [];
  for (const box of placed) {
    const row = rows.find((r) => sameRow(r, box));
    if (row) row.push(box);
    else rows.push([box]);
  }
  return rows
    .map((row) => row.sort((a, b) => a.left - b.left))
    .sort((a, b) => top(a) - top(b))
    .map((row) => ({
      text: row.map((b) => b.text).join(" "),
      // Thickness stands in for the font size; positions grow upwards, as a PDF's do.
      size: Math.round(Math.max(...row.map((b) => b.bottom - b.top))),
      y: -top(row),
    }));
}

function deskewed({ box, text }: ReadLine): Placed {
  const cos = Math.cos(box.angle);
  const sin = Math.sin(box.angle);
  const u = box.cx * cos + box.cy * sin;
  const v = -box.cx * sin + box.cy * cos;
  return { text, left: u - box.length / 2, right: u + box.length / 2, top: v - box.thickness / 2, bottom: v + box.thickness / 2 };
}

/** On the same printed line: their vertical extents overlap by more than half the smaller one. */
function sameRow(row: Placed[], box: Placed): boolean {
  const rowTop = top(row);
  const rowBottom = Math.max(...row.map((b) => b.bottom));
  const overlap = Math.min(rowBottom, box.bottom) - Math.max(rowTop, box.top);
  const smaller = Math.min(rowBottom - rowTop, box.bottom - box.top);
  return overlap > smaller / 2 && !row.some((b) => b.left < box.right && box.left < b.right);
}

function top(row: Placed[]): number {
  return Math.min(...row.map((b) => b.top));
}
