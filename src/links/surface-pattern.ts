// Where a concept's surface form counts as named: as a whole word in scripts that put spaces between words,
// but at any place in scripts written without them (Chinese, Japanese, Thai, ...) and in Korean, where
// particles attach to the noun ("서울에서"): there a name runs straight into the next word, and requiring a
// non-letter beside it found almost no mentions in run-on text. By script extension: the long-vowel mark
// "ー" that ends many katakana names is Common by script, Katakana by use.
import { codePointAt, codePointBefore } from "../lib/regexp";

const UNSPACED = /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}\p{scx=Thai}\p{scx=Lao}\p{scx=Khmer}\p{scx=Myanmar}]/u;

/**
 * The regular-expression source matching `body` (already a pattern for `surface`) as a mention: `word`
 * (character-class contents) may not touch it on a side where the surface ends in a spaced script; `before`
 * and `after` may never touch it (e.g. link brackets).
 */
export function mentionSource(surface: string, body: string, word = "\\p{L}\\p{N}", before = "", after = ""): string {
  const lead = UNSPACED.test(surface[0] ?? "") ? before : `${word}${before}`;
  const tail = UNSPACED.test(surface.at(-1) ?? "") ? after : `${word}${after}`;
  const compound = LOWER_START.test(surface) ? `(?<![${word}]-)` : "";
  return `${lead ? `(?<![${lead}])` : ""}${compound}${body}${tail ? `(?![${tail}])` : ""}`;
}

/**
 * A lower-case phrase is not named by the end of a hyphenated word ("call engineer" in "on-call engineer");
 * a name after a prefix is ("ex-Google").
 */
const LOWER_START = /^\p{Ll}/u;

/** Whether a code point is in a character class (its contents, as in mentionSource): compiled once per class. */
const classes = new Map<string, RegExp>();
const inClass = (contents: string) => {
  let re = classes.get(contents);
  if (!re) classes.set(contents, (re = new RegExp(`^[${contents}]$`, "u")));
  return re;
};

/**
 * mentionSource's boundaries as a check of a match found by the plain body (start, end in `text`): the same
 * rule without the lookaround, so the pattern holds no Unicode class (compiling one cost ~25 µs for each
 * surface, and a page's links took 80-180 µs in all; 17-25 µs this way).
 */
export function mentionBoundaries(surface: string, word = "\\p{L}\\p{N}", before = "", after = ""): (text: string, start: number, end: number) => boolean {
  const lead = UNSPACED.test(surface[0] ?? "") ? before : `${word}${before}`;
  const tail = UNSPACED.test(surface.at(-1) ?? "") ? after : `${word}${after}`;
  const leadClass = lead ? inClass(lead) : null;
  const tailClass = tail ? inClass(tail) : null;
  const wordClass = LOWER_START.test(surface) ? inClass(word) : null;
  const inCompound = (text: string, start: number) => wordClass !== null && text[start - 1] === "-" && wordClass.test(codePointBefore(text, start - 1));
  return (text, start, end) => !(leadClass?.test(codePointBefore(text, start)) || tailClass?.test(codePointAt(text, end)) || inCompound(text, start));
}
