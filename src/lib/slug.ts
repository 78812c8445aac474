// URL slugs: lowercase ASCII words joined by '-', diacritics stripped, never empty.
export function slugify(text: string, fallback = "page", maxLength = 80): string {
  const slug = text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, maxLength)
    .replace(/-+$/g, "");
  return slug || fallback;
}

/** `base`, then `base-2`, `base-3`... until `taken` says no. */
export async function uniqueSlug(base: string, taken: (slug: string) => boolean | Promise<boolean>): Promise<string> {
  if (!(await taken(base))) return base;
  for (let n = 2; ; n++) if (!(await taken(`${base}-${n}`))) return `${base}-${n}`;
}
