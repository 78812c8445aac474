/** `text` as a regular expression that matches it literally. */
export const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The code point that ends at `end` in `text` (a whole astral one when a low surrogate ends there); "" at 0. */
export function codePointBefore(text: string, end: number): string {
  if (end <= 0) return "";
  const low = text.charCodeAt(end - 1);
  const astral = low >= 0xdc00 && low <= 0xdfff && end > 1 && (text.charCodeAt(end - 2) & 0xfc00) === 0xd800;
  return text.slice(astral ? end - 2 : end - 1, end);
}

/** The code point that starts at `start` in `text`; "" at the end. */
export const codePointAt = (text: string, start: number): string => (start < text.length ? String.fromCodePoint(text.codePointAt(start)!) : "");
