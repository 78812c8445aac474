// Plain-text sentences of a wiki page and the light stemming used to match query terms against them
// (FTS5's porter stemmer is not exposed; this only needs to agree on plurals and simple verb forms).
import { wordsOf } from "../../retrieval";
import { hardWrap } from "../../lib/hard-wrap";

export interface Sentence {
  text: string;
  /** Stems of the sentence's words. */
  stems: Set<string>;
}

const GENERATED_LINE = /^(Related: \[\[.*|Source: <[^>\n]*>)\s*$/gm;
const FENCE = /^(```|~~~)[\s\S]*?^\1\s*$/gm;
/** A sentence ends at . ! ? (or CJK 。！？) followed by space and what can start a sentence. */
const SENTENCE_END = /(?<=[.!?…])\s+(?=["“'(\[]?[\p{Lu}\p{N}])|(?<=[。！？])/u;
const MAX_SENTENCE_CHARS = 600;

/** The page's prose as sentences: code, headings markers, link syntax and our generated lines removed. */
export function sentencesOf(markdown: string): Sentence[] {
  const prose = markdown
    .replace(FENCE, "\n")
    .replace(GENERATED_LINE, "")
    .replace(/\[\[([^\]|\n]+)(?:\|([^\]\n]*))?\]\]/g, (_, slug: string, label?: string) => label || slug.replaceAll("-", " "))
    .replace(/!?\[([^\]\n]*)\]\([^)\n]*\)/g, "$1")
    .replace(/<[^>\n]+>/g, " ")
    .replace(/[*_`]{1,3}/g, "");
  const out: Sentence[] = [];
  for (const block of prose.split(/\n\s*\n/)) {
    const lines = block
      .split("\n")
      .map((l) => l.replace(/^\s*(#{1,6}\s+|[-*+]\s+|\d+[.)]\s+|>\s?|\|)/, "").trim())
      .filter((l) => l && !/^[-|:\s]+$/.test(l));
    if (lines.length === 0) continue;
    for (const piece of lines.join(" ").split(SENTENCE_END)) {
      const text = piece.trim();
      if (!/[\p{L}\p{N}]/u.test(text)) continue;
      for (const chunk of hardWrap(text, MAX_SENTENCE_CHARS)) out.push({ text: chunk, stems: stemSet(chunk) });
    }
  }
  return out;
}

export function stemSet(text: string): Set<string> {
  return new Set(wordsOf(text).map(stem));
}

/** voices→voic, voiced→voic, racing→rac, countries→country; short words stay as they are. */
export function stem(word: string): string {
  let w = word;
  if (w.length <= 3 || /\d/.test(w)) return w;
  if (w.endsWith("ies") && w.length > 4) return `${w.slice(0, -3)}y`;
  if (w.endsWith("ing") && w.length > 5) w = w.slice(0, -3);
  else if (w.endsWith("ed") && w.length > 4) w = w.slice(0, -2);
  else if (/(ch|sh|x|z|ss)es$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith("s") && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);
  if (/([^aeiouslz])\1$/.test(w)) w = w.slice(0, -1);
  if (w.endsWith("e") && w.length > 3) w = w.slice(0, -1);
  return w;
}
