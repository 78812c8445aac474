import { urlPath } from "./detect-type.ts";

const MAX_TITLE_CHARS = 200;
const MAX_FIRST_LINE_TITLE_CHARS = 120; // a longer first line is a sentence, not a title

/** Whitespace collapsed, capped; empty when nothing is left. */
export function cleanTitle(text: string | null | undefined): string {
  const collapsed = (text ?? "").replace(/\s+/g, " ").trim();
  return collapsed.length <= MAX_TITLE_CHARS ? collapsed : `${collapsed.slice(0, MAX_TITLE_CHARS - 1).trimEnd()}…`;
}

/** "reports/q3-sales_summary.pdf" → "q3 sales summary". */
export function titleFromName(filename: string | undefined, url: string | undefined): string {
  const name = filename || urlPath(url) || "";
  let last = name.split(/[\\/]/).filter(Boolean).pop() ?? "";
  try {
    last = decodeURIComponent(last);
  } catch {
    // keep it encoded
  }
  return cleanTitle(last.replace(/\.[a-z0-9]{1,10}$/i, "").replace(/[-_]+/g, " "));
}

/** The first line, when it reads as a title: short, and not a sentence ("Descale the machine every Friday."). */
export function firstLineTitle(text: string): string {
  const line = text.split("\n").find((l) => l.trim() !== "") ?? "";
  const title = cleanTitle(line.replace(/^[#>\s]+/, ""));
  return title.length <= MAX_FIRST_LINE_TITLE_CHARS && !isSentence(title) ? title : "";
}

/** Ends as a statement does (a question may be a title: "How do I reset my password?") or holds two sentences. */
const isSentence = (line: string) =>
  (/[.!]$/.test(line) && line.split(" ").length >= MIN_SENTENCE_WORDS) || /[.!?]\s+\p{Lu}\p{Ll}/u.test(line);
const MIN_SENTENCE_WORDS = 5;

/** First non-empty candidate, else "Untitled". */
export function pickTitle(...candidates: Array<string | null | undefined>): string {
  for (const candidate of candidates) {
    const title = cleanTitle(candidate);
    if (title) return title;
  }
  return "Untitled";
}
