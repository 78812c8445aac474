/** The path of an absolute request URL without building a URL object (runs several times per request). */
export function pathOf(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  if (start < 0) return "/";
  // Two indexOf calls rather than a regular expression search (cheaper on every request).
  let end = url.indexOf("?", start);
  const hash = url.indexOf("#", start);
  if (hash >= 0 && (end < 0 || hash < end)) end = hash;
  return end < 0 ? url.slice(start) : url.slice(start, end);
}
