// Where a concept's surface form counts as named: as a whole word in scripts that put spaces between words,
// but at any place in scripts written without them (Chinese, Japanese, Thai, ...) and in Korean, where
// particles attach to the noun ("서울에서"): there a name runs straight into the next word, and requiring a
// non-letter beside it found almost no mentions in run-on text. By script extension: the long-vowel mark
// "ー" that ends many katakana names is Common by script, Katakana by use.
const UNSPACED = /[\p{scx=Han}\p{scx=Hiragana}\p{scx=Katakana}\p{scx=Hangul}\p{scx=Thai}\p{scx=Lao}\p{scx=Khmer}\p{scx=Myanmar}]/u;

/**
 * The regular-expression source matching `body` (already a pattern for `surface`) as a mention: `word`
 * (character-class contents) may not touch it on a side where the surface ends in a spaced script; `before`
 * and `after` may never touch it (e.g. link brackets).
 */
export function mentionSource(surface: string, body: string, word = "\\p{L}\\p{N}", before = "", after = ""): string {
  const lead = UNSPACED.test(surface[0] ?? "") ? before : `${word}${before}`;
  const tail = UNSPACED.test(surface.at(-1) ?? "") ? after : `${word}${after}`;
  return `${lead ? `(?<![${lead}])` : ""}${body}${tail ? `(?![${tail}])` : ""}`;
}

/** Whether a code point is in a character class (its contents, as in mentionSource): compiled once per class. */
const classes = new Map<string, RegExp>();
const inClass = (contents: string) => {
  let re = classes.get(contents);
  if (!re) classes.set(contents, (re = new RegExp(`^[${contents}]$`, "u")));
  return re;
};

/**
 * mentionSource's boundaries as a check of a match found by the plain body (start, end in `text`): the same
 * rule, without a lookbehind, whose Unicode classes kept the engine from compiling the pattern (a pattern
 * with it scanned a 1.5 KB page in ~50 µs; the plain body runs compiled, and only its matches are checked).
 */
export function mentionBoundaries(surface: string, word = "\\p{L}\\p{N}", before = "", after = ""): (text: string, start: number, end: number) => boolean {
  const lead = UNSPACED.test(surface[0] ?? "") ? before : `${word}${before}`;
  const tail = UNSPACED.test(surface.at(-1) ?? "") ? after : `${word}${after}`;
  const leadClass = lead ? inClass(lead) : null;
  const tailClass = tail ? inClass(tail) : null;
  return (text, start, end) => {
    if (leadClass && start > 0) {
      const low = text.charCodeAt(start - 1);
      const from = low >= 0xdc00 && low <= 0xdfff && start > 1 && (text.charCodeAt(start - 2) & 0xfc00) === 0xd800 ? start - 2 : start - 1;
      if (leadClass.test(text.slice(from, start))) return false;
    }
    if (tailClass && end < text.length && tailClass.test(String.fromCodePoint(text.codePointAt(end)!))) return false;
    return true;
  };
}
