// robots.txt, read once per host and run (robots-parser): which paths may be fetched and the crawl delay
// asked for. No robots.txt (4xx) allows everything; a robots.txt that cannot be read (5xx, timeout) stops
// that host's pages for this run, as crawlers do, and they are kept in the brain as they were.
import robotsParser from "robots-parser";
import { isIngestError, SAFE_FETCH_DEFAULTS } from "../../../../ingest";
import type { ConnectorFetch } from "../types";

/** Crawl-delay above this is read as this: a robots.txt cannot stall a run for hours a page. */
const MAX_CRAWL_DELAY_MS = 30_000;
const ROBOTS_MAX_BYTES = 512 * 1024;
export const USER_AGENT = SAFE_FETCH_DEFAULTS.userAgent;

export interface HostRules {
  allowed(url: string): boolean;
  crawlDelayMs: number;
}

const ALLOW_ALL: HostRules = { allowed: () => true, crawlDelayMs: 0 };

export class RobotsCache {
  private readonly byOrigin = new Map<string, Promise<HostRules>>();
  constructor(private readonly fetch: ConnectorFetch) {}

  rulesFor(url: string): Promise<HostRules> {
    const origin = new URL(url).origin;
    let rules = this.byOrigin.get(origin);
    if (!rules) this.byOrigin.set(origin, (rules = this.load(origin)));
    return rules;
  }

  private async load(origin: string): Promise<HostRules> {
    const robotsUrl = `${origin}/robots.txt`;
    let text: string;
    try {
      const res = await this.fetch(robotsUrl, { accept: "text/plain,*/*;q=0.5", maxBytes: ROBOTS_MAX_BYTES });
      text = new TextDecoder().decode(res.body);
    } catch (e) {
      const status = isIngestError(e) ? e.details.status : undefined;
      if (status !== undefined && status >= 400 && status < 500) return ALLOW_ALL;
      throw new Error(`robots.txt of ${origin} could not be read, so its pages were not fetched: ${(e as Error).message}`);
    }
    const robots = robotsParser(robotsUrl, text);
    const delay = robots.getCrawlDelay(USER_AGENT);
    return {
      allowed: (url) => robots.isAllowed(url, USER_AGENT) !== false,
      crawlDelayMs: Math.min(MAX_CRAWL_DELAY_MS, typeof delay === "number" && delay > 0 ? delay * 1000 : 0),
    };
  }
}
