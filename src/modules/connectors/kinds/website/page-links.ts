// The links of an HTML page (<a href>), resolved against the page (and its <base href>), fragments dropped.
// A regular expression is enough here: a link missed costs a page not crawled, never a wrong page.
import { pageKey } from "./config";

const BASE = /<base\s[^>]*href\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i;
const ANCHOR = /<a\s[^>]*?href\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/gi;
/** Links read from one page at most: a page of a million links cannot flood the frontier. */
const MAX_LINKS = 2000;

const unescape = (s: string) => s.replace(/&amp;/g, "&").replace(/&#38;/g, "&");

export function pageLinks(html: string, pageUrl: string): string[] {
  const b = BASE.exec(html);
  const base = (b && pageKey(unescape(b[1] ?? b[2] ?? b[3] ?? ""), pageUrl)) || pageUrl;
  const out = new Set<string>();
  for (const m of html.matchAll(ANCHOR)) {
    const href = unescape((m[1] ?? m[2] ?? m[3] ?? "").trim());
    if (!href || /^(mailto|javascript|tel|data):/i.test(href)) continue;
    const key = pageKey(href, base);
    if (key) out.add(key);
    if (out.size >= MAX_LINKS) break;
  }
  return [...out];
}
