// A PDF page's text comes line by line, as it was laid out: a paragraph has no blank line after it, a word
// is hyphenated across two lines ("con-" / "currency") and a heading runs straight into the paragraph under
// it. Read that way, sentences break at every line end and a hyphenated word is two words nobody searches
// for. Rebuilt here into paragraphs of whole lines: a line ends its paragraph when it is short for the page
// (a heading, or a paragraph's last line), or when the next line opens a list item. With the page's layout
// (font sizes, line positions) a heading also stands apart when it is set larger than the body text or a
// wider gap than the line spacing comes before it: a full last line ("... longer flights.") with the
// heading under it ("Hotels") reads the same as a wrapped line in text alone.

/** One line of a page: its text and, when the PDF gave them, its font size and baseline (up is larger). */
export interface PdfLine {
  text: string;
  size?: number;
  y?: number;
}

/** A line shorter than this share of the page's full line width ends its paragraph. */
const SHORT_LINE = 0.8;
/** Share of the page's lines at or below the full width (the longest lines are the full ones). */
const FULL_WIDTH_RANK = 0.8;
/** A line set this much larger than the page's body text is a heading. */
const HEADING_SIZE = 1.15;
/** A gap this much wider than the page's usual line spacing starts a paragraph. */
const WIDE_GAP = 1.4;
/** A heading in text alone: a few words, capitalized, no sentence end, after a sentence's end. */
const HEADING_WORDS = 8;
const ENDS_SENTENCE = /[.!?…:;"”’)\]]$/u;
const OPENS_ITEM = /^(?:[•▪◦●‣∙·\-–*]\s+|\(?\d{1,3}[.)]\s+|\(?[a-z][.)]\s+)/u;
const BULLET = /^[•▪◦●‣∙·–]\s+/u;
const OPENS_CAPITALIZED = /^[\p{Lu}\p{N}"“(]/u;

/** Text items of a page (pdf.js's, as unpdf gives them) as lines: an item ending a line (hasEOL) ends one. */
export function pdfLines(items: { str: string; fontSize: number; y: number; hasEOL: boolean }[]): PdfLine[] {
  const lines: PdfLine[] = [];
  let current: PdfLine = { text: "" };
  for (const item of items) {
    current.text += item.str;
    if (item.str.trim()) {
      current.size = Math.max(current.size ?? 0, item.fontSize);
      current.y ??= item.y;
    }
    if (item.hasEOL) [lines[lines.length], current] = [current, { text: "" }];
  }
  if (current.text) lines.push(current);
  return lines;
}

/** The page's text as Markdown paragraphs (blank line between), hyphenated words rejoined, bullets as list items. */
export function reflowPdfPage(page: string | PdfLine[]): string {
  const given = typeof page === "string" ? page.split("\n").map((text) => ({ text })) : page;
  const lines = given.map((l) => ({ ...l, text: l.text.replace(/\s+/g, " ").trim() }));
  const widths = lines.filter((l) => l.text).map((l) => l.text.length).sort((a, b) => a - b);
  if (widths.length === 0) return "";
  const full = widths[Math.min(widths.length - 1, Math.floor(FULL_WIDTH_RANK * widths.length))]!;
  const layout = layoutBreaks(lines);
  const paragraphs: string[] = [];
  let current = "";
  const flush = () => {
    if (current) paragraphs.push(current);
    current = "";
  };
  lines.forEach(({ text: raw }, i) => {
    if (!raw) return flush();
    const previous = lines[i - 1]?.text ?? "";
    const next = lines[i + 1]?.text ?? "";
    if (layout.has(i) || headingInText(raw, previous, next, full)) flush();
    const line = raw.replace(BULLET, "- ");
    // "con-" / "currency" is one word; "post-" / "Soviet" a compound whose hyphen stays.
    if (current && /\p{L}-$/u.test(current) && /^\p{L}/u.test(line)) current = (/^\p{Ll}/u.test(line) ? current.slice(0, -1) : current) + line;
    else current = current ? `${current} ${line}` : line;
    if (!next) return;
    const short = raw.length < SHORT_LINE * full;
    if (OPENS_ITEM.test(next) || (short && (ENDS_SENTENCE.test(raw) || OPENS_CAPITALIZED.test(next)))) flush();
  });
  flush();
  return paragraphs.join("\n\n");
}

/** A short capitalized line without a sentence end, after a sentence's end and before a capitalized line. */
function headingInText(line: string, previous: string, next: string, full: number): boolean {
  return (
    ENDS_SENTENCE.test(previous) &&
    line.length < SHORT_LINE * full &&
    !ENDS_SENTENCE.test(line) &&
    OPENS_CAPITALIZED.test(line) &&
    OPENS_CAPITALIZED.test(next) &&
    !OPENS_ITEM.test(line) &&
    line.split(" ").length <= HEADING_WORDS
  );
}

/**
 * Lines the layout puts at a paragraph's start: a line set larger than the body text, the line after one,
 * and a line after a gap wider than the usual spacing. Empty without sizes and positions.
 */
function layoutBreaks(lines: PdfLine[]): Set<number> {
  const breaks = new Set<number>();
  const placed = lines.map((l, i) => ({ ...l, i })).filter((l) => l.text && l.size && l.y !== undefined);
  if (placed.length < 2) return breaks;
  const body = mostWritten(placed);
  const gaps = placed.slice(1).map((l, k) => placed[k]!.y! - l.y!);
  const usual = mostCommon(gaps.filter((g) => g > 0).map((g) => Math.round(g * 2) / 2));
  const heading = (size: number) => size > body * HEADING_SIZE;
  placed.slice(1).forEach((line, k) => {
    const before = placed[k]!;
    const gap = gaps[k]!;
    if (heading(line.size!) || heading(before.size!) || gap < 0 || (usual > 0 && gap > usual * WIDE_GAP)) breaks.add(line.i);
  });
  return breaks;
}

/** The font size most of the page's characters are set in. */
function mostWritten(lines: PdfLine[]): number {
  const chars = new Map<number, number>();
  for (const l of lines) chars.set(l.size!, (chars.get(l.size!) ?? 0) + l.text.length);
  return [...chars].sort((a, b) => b[1] - a[1])[0]![0];
}

/** The value seen most often (the smaller on a tie), 0 for none. */
function mostCommon(values: number[]): number {
  const counts = new Map<number, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]?.[0] ?? 0;
}
