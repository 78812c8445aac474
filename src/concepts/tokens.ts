// The tagger's tokens of one text, read once, and the word edges over them: the tagger splits hyphenated and
// attached words into pieces, so spans are grown to whole words here.
import { CAPITALIZED } from "./word-kinds";

export interface Tokens {
  text: string[];
  pos: string[];
  spaces: string[];
  /** Every token with the spacing before it, joined (spanText slices it), and where each token starts in it. */
  joined: string;
  starts: number[];
  /** Token index → its sentence's first and last token. */
  sentenceStart: number[];
  sentenceEnd: number[];
}

/**
 * The tagger splits a hyphenated word into its parts ("on", "-", "call"; even "Jean", "-", "Pa", "u", "l"),
 * so a phrase or name could start or end inside one: "call engineer" of "on-call engineer", "Malo" of
 * "Saint-Malo". A span is grown to whole words: over the pieces written against it, and over a hyphen
 * written between two of them, within its sentence.
 */
export const wordy = (t: Tokens, i: number) => WORD_PIECE.test(t.text[i] ?? "");
export const attached = (t: Tokens, i: number) => t.spaces[i] === "";
export const WORD_PIECE = /^[\p{L}\p{N}]/u;
export const HYPHEN = /^[-\u2010\u2011]$/;

/** The first word's token of the sentence token `i` is in (past any opening mark or line break). */
export function firstWord(t: Tokens, i: number): number {
  let first = t.sentenceStart[i]!;
  while (first < i && !wordy(t, first)) first++;
  return first;
}

/** The last token of the word that token `b` is part of (not past `last`). */
export function wordEnd(t: Tokens, b: number, last: number): number {
  for (;;) {
    if (b + 1 <= last && attached(t, b + 1) && wordy(t, b + 1)) b++;
    else if (b + 2 <= last && HYPHEN.test(t.text[b + 1]!) && attached(t, b + 1) && attached(t, b + 2) && wordy(t, b + 2)) b += 2;
    else return b;
  }
}

/** The first token of the word that token `a` is part of (not before `first`). */
export function wordStart(t: Tokens, a: number, first: number): number {
  for (;;) {
    if (a - 1 >= first && attached(t, a) && wordy(t, a - 1)) a--;
    else if (a - 2 >= first && HYPHEN.test(t.text[a - 1]!) && attached(t, a) && attached(t, a - 1) && wordy(t, a - 2)) a -= 2;
    else return a;
  }
}

/** The last token of up to two nouns after token `b` in its sentence (`b` when none follows). */
export function nounRun(t: Tokens, b: number): number {
  const last = t.sentenceEnd[b]!;
  let end = b;
  for (let n = 0; n < 2 && end + 1 <= last && t.pos[end + 1] === "NOUN" && !CAPITALIZED.test(t.text[end + 1]!); n++) end = wordEnd(t, end + 1, last);
  return end;
}

/** The text of tokens a..b as written: each sentence and phrase a slice of one string, not a string built per span. */
export function spanText(t: Tokens, a: number, b: number): string {
  return t.joined.slice(t.starts[a], t.starts[b]! + t.text[b]!.length);
}

export function joinTokens(t: Tokens): void {
  const parts: string[] = [];
  let at = 0;
  for (let i = 0; i < t.text.length; i++) {
    const space = i === 0 ? "" : (t.spaces[i] ?? "");
    parts.push(space, t.text[i]!);
    at += space.length;
    t.starts[i] = at;
    at += t.text[i]!.length;
  }
  t.joined = parts.join("");
}
