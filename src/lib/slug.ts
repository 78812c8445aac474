// Slugs of pages and brains: lower-case Unicode letters and digits joined by single dashes. Latin letters
// lose their accents ("Déjà vu" → "deja-vu", as slugs always were); other scripts keep their letters
// ("Пётр Чайковский" → "пётр-чайковский", "東京タワー" → "東京タワー"), so a page titled in Cyrillic, Greek,
// Arabic or CJK gets a meaningful slug instead of `page-2`. A slug never holds a space, `/`, `?`, `#`, `%`,
// `|`, `[`, `]` or an invisible format character (bidi controls, joiners), so `[[slug]]` parses and a URL
// needs only percent-encoding of its UTF-8 bytes.

/** The cap, in Unicode code points (a CJK slug of 80 is 720 characters once percent-encoded). */
export const MAX_SLUG_CHARS = 80;

// Latin letters that NFKD does not split into base letter + accent.
const FOLDS: Record<string, string> = {
  ß: "ss", æ: "ae", œ: "oe", ø: "o", đ: "d", ð: "d", þ: "th", ł: "l", ı: "i", ħ: "h", ŧ: "t", ŋ: "n",
};

/** A Latin letter (or ASCII character) followed by combining marks: the marks are its accents. */
const LATIN_ACCENTS = /([\p{Script=Latin}\p{ASCII}])\p{M}+/gu;
/** Anything but letters, digits and the marks that belong to a letter (Devanagari vowel signs, kana voicing...). */
const SEPARATORS = /[^\p{L}\p{N}\p{M}]+/gu;
/** Marks with no letter or digit before them (after a separator or at the start). */
const STRAY_MARKS = /(^|-)\p{M}+/gu;

/** Text of ASCII characters only: no accents, folds or marks, and \p{L}, \p{N} are [a-z0-9] once lower-cased. */
const ASCII = /^[\x00-\x7f]*$/;
const ASCII_SEPARATORS = /[^a-z0-9]+/g;

/** "Café Déjà-vu!" → "cafe-deja-vu", "Москва 2024" → "москва-2024"; never empty ("🚀" → `fallback`). */
export function slugify(title: string, fallback = "page"): string {
  // Most titles and every concept key of English text: the same slug without the Unicode passes (a third of
  // a concept key's cost).
  if (ASCII.test(title)) return truncateSlug(title.toLowerCase().replace(ASCII_SEPARATORS, "-"), MAX_SLUG_CHARS) || fallback;
  const folded = title
    .toLowerCase()
    .normalize("NFKD")
    .replace(LATIN_ACCENTS, "$1")
    .replace(/[ßæœøđðþłıħŧŋ]/g, (ch) => FOLDS[ch] ?? ch)
    .normalize("NFC") // NFKD then NFC is NFKC: "й", "ё", "ダ", "가" are whole letters again
    .replace(SEPARATORS, "-")
    .replace(STRAY_MARKS, "$1");
  const slug = truncateSlug(folded, MAX_SLUG_CHARS);
  return slug || fallback;
}

/**
 * A slug as written in a link, a citation or a request, in the form slugs are stored: trimmed, NFC (a
 * client that decomposes "ё" into "е" + U+0308, as macOS file names do, still names the same page).
 */
export function slugRef(raw: string): string {
  return raw.trim().normalize("NFC");
}

/** `base`, else `base-2`, `base-3`... still within the length limit. */
export function uniqueSlug(base: string, taken: (slug: string) => boolean): string {
  if (!taken(base)) return base;
  for (let n = 2; n < 1_000_000; n++) {
    const suffix = `-${n}`;
    const candidate = `${truncateSlug(base, MAX_SLUG_CHARS - suffix.length) || "page"}${suffix}`;
    if (!taken(candidate)) return candidate;
  }
  throw new Error(`no free slug for "${base}"`);
}

const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/**
 * At most `max` code points, cut at a dash when one is near (slugs do not end mid-word) and never between a
 * letter and its marks; no leading or trailing dash.
 */
function truncateSlug(slug: string, max: number): string {
  let cut = slug.replace(/^-+|-+$/g, "");
  if (cut.length > max && codePoints(cut) > max) {
    let kept = "";
    let count = 0;
    for (const { segment } of graphemes.segment(cut)) {
      count += codePoints(segment);
      if (count > max) break;
      kept += segment;
    }
    const keptPoints = codePoints(kept);
    const lastDash = kept.lastIndexOf("-");
    if (lastDash >= 0 && codePoints(kept.slice(0, lastDash)) > keptPoints * 0.6) kept = kept.slice(0, lastDash);
    cut = kept;
  }
  return cut.replace(/-+$/g, "");
}

const codePoints = (text: string) => [...text].length;
