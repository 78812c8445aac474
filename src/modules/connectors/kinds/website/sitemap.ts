// Sitemaps (sitemaps.org): a urlset of pages or an index of further sitemaps, read with bounds: so many
// sitemap files per run and so deep, so an index naming 10,000 sitemaps costs a bounded number of requests.
import type { KindRun } from "../types";
import type { WebsiteConfig } from "./config";

export const MAX_SITEMAP_FILES = 50;
export const MAX_SITEMAP_NESTING = 3;
const SITEMAP_MAX_BYTES = 10 * 1024 * 1024;

const ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&apos;": "'" };
const decode = (s: string) => s.trim().replace(/&(amp|lt|gt|quot|apos);/g, (m) => ENTITIES[m]!);

/** The <loc>s of a sitemap's <sitemap> entries (an index) and of its <url> entries (pages). */
export function readSitemap(xml: string): { sitemaps: string[]; pages: string[] } {
  const locs = (tag: string) => [...xml.matchAll(new RegExp(`<${tag}\\b[^>]*>[\\s\\S]*?<loc>([\\s\\S]*?)</loc>`, "gi"))].map((m) => decode(m[1]!));
  return { sitemaps: locs("sitemap"), pages: locs("url") };
}

/** Every page URL the configured sitemaps list (breadth first, within the bounds above and maxPages). */
export async function sitemapPages(run: KindRun<WebsiteConfig>, roots: string[]): Promise<string[]> {
  const pages: string[] = [];
  const seen = new Set<string>();
  let queue = roots.map((url) => ({ url, depth: 0 }));
  let files = 0;
  let skipped = 0;
  while (queue.length && pages.length < run.config.maxPages) {
    const next: typeof queue = [];
    for (const { url, depth } of queue) {
      if (seen.has(url)) continue;
      seen.add(url);
      if (files >= MAX_SITEMAP_FILES || depth > MAX_SITEMAP_NESTING) {
        skipped++;
        continue;
      }
      files++;
      const res = await run.fetch(url, { accept: "application/xml,text/xml;q=0.9,*/*;q=0.5", maxBytes: SITEMAP_MAX_BYTES });
      const found = readSitemap(new TextDecoder().decode(res.body));
      if (!found.sitemaps.length && !found.pages.length && !/<(urlset|sitemapindex)\b/i.test(new TextDecoder().decode(res.body.subarray(0, 4096))))
        throw new Error(`${url} is not a sitemap (no <urlset> or <sitemapindex>)`);
      pages.push(...found.pages);
      // Only as many nested sitemaps as can still be read are kept: an index of 10,000 holds no more memory.
      for (const u of found.sitemaps) {
        if (files + next.length < MAX_SITEMAP_FILES && depth + 1 <= MAX_SITEMAP_NESTING) next.push({ url: u, depth: depth + 1 });
        else skipped++;
      }
    }
    queue = next;
  }
  if (skipped > 0)
    run.note(`The sitemaps name more sitemap files than one run reads (${MAX_SITEMAP_FILES} files, nested ${MAX_SITEMAP_NESTING} deep): ${skipped} were not read`);
  return pages.slice(0, run.config.maxPages);
}
