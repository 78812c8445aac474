// The website kind: pages from start URLs (following links, same site by default) and/or sitemaps, robots.txt
// obeyed, polite per host, re-read with conditional GETs (an unchanged page costs one request, writes nothing).
import { isIngestError } from "../../../../ingest";
import { sha256Hex } from "../../../../lib/secrets";
import type { ConnectorKind, FetchOutcome, ItemRef, KindRun, KnownItem } from "../types";
import { inScope, pageKey, parseWebsiteConfig, WEBSITE_SECRET_KEYS, type WebsiteConfig } from "./config";
import { HostGate } from "./host-gate";
import { pageLinks } from "./page-links";
import { RobotsCache } from "./robots";
import { sitemapPages } from "./sitemap";

interface Version {
  etag?: string;
  lastModified?: string;
  /** The body's hash: a server without validators still costs no write when nothing changed. */
  hash: string;
}

/** What one run keeps in memory: robots.txt per host and the politeness gate. */
interface RunState {
  robots: RobotsCache;
  gate: HostGate;
}
const states = new WeakMap<KindRun<WebsiteConfig>, RunState>();
function stateOf(run: KindRun<WebsiteConfig>): RunState {
  let s = states.get(run);
  if (!s) states.set(run, (s = { robots: new RobotsCache(run.fetch), gate: new HostGate(run.config.concurrencyPerHost) }));
  return s;
}

const parseVersion = (v: string | null): Version | null => {
  try {
    return v ? (JSON.parse(v) as Version) : null;
  } catch {
    return null;
  }
};

const HTML = /text\/html|application\/xhtml\+xml/i;

function linksOf(run: KindRun<WebsiteConfig>, item: ItemRef, body: Uint8Array, contentType: string, url: string): ItemRef[] {
  const depth = item.depth ?? 0;
  if (depth >= run.config.maxDepth || !HTML.test(contentType)) return [];
  return pageLinks(new TextDecoder().decode(body), url)
    .filter((href) => inScope(run.config, new URL(href)))
    .map((key) => ({ key, url: key, depth: depth + 1 }));
}

async function fetchPage(run: KindRun<WebsiteConfig>, item: ItemRef, known: KnownItem | null): Promise<FetchOutcome> {
  const url = item.url ?? item.key;
  const { robots, gate } = stateOf(run);
  const rules = await robots.rulesFor(url);
  if (!rules.allowed(url)) return { kind: "skipped", reason: "robots.txt disallows it" };
  const old = known?.sourceId ? parseVersion(known.version) : null;
  let res;
  try {
    res = await gate.run(new URL(url).host, Math.max(run.config.crawlDelayMs, rules.crawlDelayMs), () =>
      run.fetch(url, old ? { conditional: { etag: old.etag, lastModified: old.lastModified } } : {}), run.signal);
  } catch (e) {
    if (isIngestError(e) && e.code === "http_status" && (e.details.status === 404 || e.details.status === 410)) return { kind: "gone" };
    throw e;
  }
  if (res.status === 304 && old) return { kind: "unchanged" };
  const version: Version = { etag: res.etag, lastModified: res.lastModified, hash: sha256Hex(Buffer.from(res.body).toString("latin1")) };
  const discovered = linksOf(run, item, res.body, res.contentType, res.url);
  if (old && old.hash === version.hash) return { kind: "unchanged", version: JSON.stringify(version), discovered };
  let doc;
  try {
    doc = await run.reader.extract({ bytes: res.body, contentType: res.contentType, url: res.url });
  } catch (e) {
    if (isIngestError(e) && (e.code === "unsupported_type" || e.code === "empty_document")) return { kind: "skipped", reason: e.message, discovered };
    throw e;
  }
  if (!doc.markdown.trim()) return { kind: "skipped", reason: "the page has no text", discovered };
  return { kind: "content", source: { type: "text", title: doc.title || res.url, content: doc.markdown, url: res.url }, version: JSON.stringify(version), discovered };
}

export const websiteKind: ConnectorKind<WebsiteConfig> = {
  kind: "website",
  secretKeys: WEBSITE_SECRET_KEYS,
  ownsSources: true,
  parseConfig: parseWebsiteConfig,
  async list(run) {
    const fromSitemaps = run.config.sitemaps.length ? await sitemapPages(run, run.config.sitemaps) : [];
    const refs: ItemRef[] = [];
    for (const href of [...run.config.startUrls, ...fromSitemaps]) {
      const key = pageKey(href);
      if (key && inScope(run.config, new URL(key))) refs.push({ key, url: key, depth: 0 });
    }
    return refs;
  },
  fetch: fetchPage,
  prunes: (c) => c.prune,
  // A crawl learns its pages from links; an unchanged page (304) tells none, so known pages are revisited.
  revisitsKnown: (c) => c.startUrls.length > 0 && c.maxDepth > 0,
  maxItems: (c) => c.maxPages,
  concurrency: (c) => Math.min(16, c.concurrencyPerHost * 2),
};
