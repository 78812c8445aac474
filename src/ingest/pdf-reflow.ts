// A PDF page's text comes line by line, as it was laid out: a paragraph has no blank line after it, a word
// is hyphenated across two lines ("con-" / "currency") and a heading runs straight into the paragraph under
// it. Read that way, sentences break at every line end and a hyphenated word is two words nobody searches
// for. Rebuilt here into paragraphs of whole lines: a line ends its paragraph when it is short for the page
// (a heading, or a paragraph's last line), or when the next line opens a list item.

/** A line shorter than this share of the page's full line width ends its paragraph. */
const SHORT_LINE = 0.8;
/** Share of the page's lines at or below the full width (the longest lines are the full ones). */
const FULL_WIDTH_RANK = 0.8;
const ENDS_SENTENCE = /[.!?…:;"”’)\]]$/u;
const OPENS_ITEM = /^(?:[•▪◦●‣∙·\-–*]\s+|\(?\d{1,3}[.)]\s+|\(?[a-z][.)]\s+)/u;
const BULLET = /^[•▪◦●‣∙·–]\s+/u;

/** The page's text as Markdown paragraphs (blank line between), hyphenated words rejoined, bullets as list items. */
export function reflowPdfPage(text: string): string {
  const lines = text.split("\n").map((l) => l.replace(/\s+/g, " ").trim());
  const widths = lines.filter(Boolean).map((l) => l.length).sort((a, b) => a - b);
  if (widths.length === 0) return "";
  const full = widths[Math.min(widths.length - 1, Math.floor(FULL_WIDTH_RANK * widths.length))]!;
  const paragraphs: string[] = [];
  let current = "";
  const flush = () => {
    if (current) paragraphs.push(current);
    current = "";
  };
  lines.forEach((raw, i) => {
    if (!raw) return flush();
    const line = raw.replace(BULLET, "- ");
    // "con-" / "currency" is one word; "post-" / "Soviet" a compound whose hyphen stays.
    if (current && /\p{L}-$/u.test(current) && /^\p{L}/u.test(line)) current = (/^\p{Ll}/u.test(line) ? current.slice(0, -1) : current) + line;
    else current = current ? `${current} ${line}` : line;
    const next = lines[i + 1] ?? "";
    if (!next) return;
    const short = raw.length < SHORT_LINE * full;
    const nextOpens = /^[\p{Lu}\p{N}"“(]/u.test(next);
    if (OPENS_ITEM.test(next) || (short && (ENDS_SENTENCE.test(raw) || nextOpens))) flush();
  });
  flush();
  return paragraphs.join("\n\n");
}
