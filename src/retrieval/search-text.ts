// What the full-text index reads of a page: its readable text, not the wiki's syntax around it. Synthesis adds
// lines that are not the source's words (`Related: [[...]]`, `Source: <url>`), links put a slug beside the
// words they link (`[[marie-curie|Marie Curie]]` indexed "marie curie marie curie"), and the extractive lead
// repeats the page's most central sentence: each shifts BM25's term counts and lengths away from the text
// (measured in scripts/eval-context.ts). Computed when a page is written (SQLite has no regular expressions)
// and stored in `pages.search_text`, which the FTS5 triggers index instead of the markdown. Migration 0013
// computes the same for existing pages in SQL (except the CJK spacing below, which needs Unicode classes).
import { OCR_NOTE_PATTERN } from "../lib/ocr-note.ts";
import { CJK, hyphenJoined } from "./terms";
import { withoutRepeatedLead } from "../lib/repeated-lead";

const GENERATED_LINE = new RegExp(String.raw`^(?:Related: \[\[.*|Source: <[^>\n]*>|${OCR_NOTE_PATTERN})[ \t]*$`, "gm");
const LABELLED_LINK = /\[\[[^\[\]|\n]+\|([^\[\]\n]*)\]\]/g;
const PLAIN_LINK = /\[\[([^\[\]|\n]+)\]\]/g;

const CJK_CHAR = new RegExp(CJK.source, "gu");

/**
 * The page's words for the index. Changes that keep these words (a link added around a phrase, the `Related:`
 * line rewritten) need not rewrite `search_text`: the index triggers then skip the page.
 */
export function searchTextOf(markdown: string): string {
  const text = markdown
    .replace(GENERATED_LINE, "")
    .replace(LABELLED_LINK, "$1")
    .replace(PLAIN_LINK, (_, slug: string) => slug.replaceAll("-", " "))
    .trim();
  const said = withoutRepeatedLead(text);
  // Hyphenated words are also indexed as one word, on a line of their own after the text.
  const joined = hyphenJoined(said);
  const readable = joined.length ? `${said}\n\n${[...new Set(joined)].join(" ")}` : said;
  // CJK has no spaces between words: each character its own token, so a query's character pairs match.
  return CJK.test(readable) ? readable.replace(CJK_CHAR, " $& ").trim() : readable;
}

