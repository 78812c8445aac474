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
