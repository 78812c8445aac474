/**
 * Where the path of a request URL starts. Bun hands an origin-less URL ("/a/b?c") when the Host header is no
 * valid host (empty, or with a slash or "@" in it): the path then starts at once.
 */
export function pathStart(url: string): number {
  if (url.charCodeAt(0) === 47) return 0;
  const authority = url.indexOf("//");
  if (authority < 0) return -1;
  return url.indexOf("/", authority + 2);
}

/** The path of a request URL without building a URL object (runs several times per request). */
export function pathOf(url: string): string {
  const start = pathStart(url);
  if (start < 0) return "/";
  // Two indexOf calls rather than a regular expression search (cheaper on every request).
  let end = url.indexOf("?", start);
  const hash = url.indexOf("#", start);
  if (hash >= 0 && (end < 0 || hash < end)) end = hash;
  return end < 0 ? url.slice(start) : url.slice(start, end);
}
