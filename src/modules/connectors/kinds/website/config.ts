// The website kind's settings: where to start (URLs and/or sitemaps), what is in scope, how far and how fast.
import { invalid } from "../../../../lib/errors";
import type { ConfigEnv } from "../types";
import { fetchableUrl, headerMap, onlyKnownKeys, optionalBool, optionalInt, stringList } from "../config-fields";

export interface WebsiteConfig {
  startUrls: string[];
  sitemaps: string[];
  /** Only pages on the hosts of the start URLs and sitemaps (default). */
  sameSite: boolean;
  /** Path patterns (`*` any characters): a page must match one of `include` (when given) and none of `exclude`. */
  include: RegExp[];
  exclude: RegExp[];
  maxPages: number;
  /** Links followed from a start URL; 0 reads the start URLs (and sitemap pages) only. */
  maxDepth: number;
  /** At least this long between two requests to one host (robots.txt's Crawl-delay may ask for more). */
  crawlDelayMs: number;
  concurrencyPerHost: number;
  /** false: a page that vanished (404/410, dropped from the sitemap) keeps its source in the brain. */
  prune: boolean;
  headers: Record<string, string>;
}

const KEYS = ["startUrls", "sitemap", "sitemaps", "sameSite", "include", "exclude", "maxPages", "maxDepth", "crawlDelayMs", "concurrencyPerHost", "prune", "headers"] as const;
export const WEBSITE_SECRET_KEYS = ["headers"] as const;

/** `*` matches any characters (slashes too); the pattern covers the whole path. */
export function pathPattern(glob: string): RegExp {
  const escaped = glob.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*+/g, ".*");
  return new RegExp(`^${escaped}$`);
}

export function parseWebsiteConfig(raw: Record<string, unknown>, env: ConfigEnv): WebsiteConfig {
  onlyKnownKeys(raw, KEYS);
  const startUrls = stringList(raw, "startUrls").map((u, i) => fetchableUrl(u, `startUrls[${i}]`, env.allowHosts));
  const sitemapList = raw.sitemap !== undefined ? [fetchableUrl(raw.sitemap, "sitemap", env.allowHosts)] : [];
  const sitemaps = [...sitemapList, ...stringList(raw, "sitemaps", 20).map((u, i) => fetchableUrl(u, `sitemaps[${i}]`, env.allowHosts))];
  if (startUrls.length === 0 && sitemaps.length === 0) throw invalid("config.startUrls", "config.startUrls or config.sitemap must name where the site starts");
  const patterns = (name: string) =>
    stringList(raw, name).map((p) => {
      if (!p.startsWith("/") && !p.startsWith("*")) throw invalid(`config.${name}`, `config.${name} holds path patterns starting with "/" (e.g. "/docs/*")`);
      return pathPattern(p);
    });
  return {
    startUrls,
    sitemaps,
    sameSite: optionalBool(raw, "sameSite", true),
    include: patterns("include"),
    exclude: patterns("exclude"),
    maxPages: optionalInt(raw, "maxPages", 1000, 1, 50_000),
    maxDepth: optionalInt(raw, "maxDepth", 5, 0, 50),
    crawlDelayMs: optionalInt(raw, "crawlDelayMs", 0, 0, 60_000),
    concurrencyPerHost: optionalInt(raw, "concurrencyPerHost", 2, 1, 16),
    prune: optionalBool(raw, "prune", true),
    headers: headerMap(raw),
  };
}

/** Whether a URL is a page of this site as configured. */
export function inScope(config: WebsiteConfig, url: URL): boolean {
  if (url.protocol !== "http:" && url.protocol !== "https:") return false;
  if (config.sameSite) {
    const hosts = new Set([...config.startUrls, ...config.sitemaps].map((u) => new URL(u).host));
    if (!hosts.has(url.host)) return false;
  }
  if (config.include.length && !config.include.some((p) => p.test(url.pathname))) return false;
  return !config.exclude.some((p) => p.test(url.pathname));
}

/** The key of a page: its URL without the fragment. */
export function pageKey(href: string, base?: string): string | null {
  try {
    const url = new URL(href, base);
    url.hash = "";
    return url.href;
  } catch {
    return null;
  }
}
