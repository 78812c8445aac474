// The feed kind: an RSS or Atom feed (@rowanmanning/feed-parser); each entry becomes a source of the article
// it links to, fetched like any link. An entry already read is not fetched again unless its date changed.
import { parseFeed } from "@rowanmanning/feed-parser";
import { invalid } from "../../../../lib/errors";
import type { ConnectorKind, ItemRef } from "../types";
import { fetchableUrl, headerMap, onlyKnownKeys, optionalBool, optionalInt } from "../config-fields";
import { pageKey } from "../website/config";

export interface FeedConfig {
  url: string;
  maxEntries: number;
  /** true: entries that left the feed are removed from the brain (a feed shows only its latest: default false). */
  prune: boolean;
  headers: Record<string, string>;
}

const FEED_MAX_BYTES = 10 * 1024 * 1024;

function parseFeedConfig(raw: Record<string, unknown>, env: { allowHosts: import("../../../../ingest").AllowList }): FeedConfig {
  onlyKnownKeys(raw, ["url", "maxEntries", "prune", "headers"]);
  if (raw.url === undefined) throw invalid("config.url", "config.url must name the feed (RSS or Atom)");
  return {
    url: fetchableUrl(raw.url, "url", env.allowHosts),
    maxEntries: optionalInt(raw, "maxEntries", 200, 1, 5000),
    prune: optionalBool(raw, "prune", false),
    headers: headerMap(raw),
  };
}

export const feedKind: ConnectorKind<FeedConfig> = {
  kind: "feed",
  secretKeys: ["headers"],
  ownsSources: true,
  parseConfig: parseFeedConfig,
  async list(run) {
    const res = await run.fetch(run.config.url, { accept: "application/rss+xml,application/atom+xml,application/xml;q=0.9,text/xml;q=0.8,*/*;q=0.5", maxBytes: FEED_MAX_BYTES });
    let feed;
    try {
      feed = parseFeed(new TextDecoder().decode(res.body));
    } catch (e) {
      throw new Error(`${run.config.url} is not an RSS or Atom feed: ${(e as Error).message}`);
    }
    const refs: ItemRef[] = [];
    for (const entry of feed.items) {
      const link = entry.url ? pageKey(entry.url, res.url) : null;
      if (!link || !/^https?:/i.test(link)) continue;
      const date = (entry.updated ?? entry.published)?.toISOString() ?? "";
      refs.push({ key: entry.id || link, url: link, version: `${link} ${date}`, hint: entry.title ? { title: entry.title.slice(0, 500) } : {} });
      if (refs.length >= run.config.maxEntries) break;
    }
    return refs;
  },
  async fetch(_run, item) {
    const title = typeof item.hint?.title === "string" ? item.hint.title : undefined;
    return { kind: "content", source: { type: "link", url: item.url!, ...(title ? { title } : {}) }, version: item.version ?? null };
  },
  prunes: (c) => c.prune,
  revisitsKnown: () => false,
  maxItems: (c) => c.maxEntries,
  concurrency: () => 4,
};
