const MAX_SLUG_CHARS = 80;

// Latin letters that NFKD does not split into base letter + accent.
const FOLDS: Record<string, string> = {
  ß: "ss", æ: "ae", œ: "oe", ø: "o", đ: "d", ð: "d", þ: "th", ł: "l", ı: "i", ħ: "h", ŧ: "t", ŋ: "n",
};

/** "Café Déjà-vu!" → "cafe-deja-vu". Lowercase ASCII letters, digits and single dashes; never empty. */
export function slugify(title: string, fallback = "page"): string {
  const folded = title
    .toLowerCase()
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .replace(/[ßæœøđðþłıħŧŋ]/g, (ch) => FOLDS[ch] ?? ch);
  const slug = truncateSlug(folded.replace(/[^a-z0-9]+/g, "-"), MAX_SLUG_CHARS);
  return slug || fallback;
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

/** Cut at a dash when one is near, so slugs do not end mid-word; no leading or trailing dash. */
function truncateSlug(slug: string, max: number): string {
  let cut = slug.replace(/^-+|-+$/g, "");
  if (cut.length > max) {
    cut = cut.slice(0, max);
    const lastDash = cut.lastIndexOf("-");
    if (lastDash > max * 0.6) cut = cut.slice(0, lastDash);
  }
  return cut.replace(/-+$/g, "");
}
