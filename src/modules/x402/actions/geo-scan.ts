// geo/scan: how ready a site is for answer engines (ChatGPT, Claude, Perplexity, Gemini...). Fetches the
// page and same-site pages linked from it with the link-source SSRF rules (safeFetch, the same allow list),
// plus /robots.txt and /llms.txt, and scores what those engines read: title, description, headings,
// JSON-LD structured data, canonical and language, Open Graph, llms.txt, and robots rules for AI crawlers.
import { classifyHostname, isAllowListed, IngestError, normalizeHostname, safeFetch, type AllowList, type Resolver } from "../../../ingest";
import { AppError, invalid } from "../../../lib/errors";
import { analyzePage, failedPage, type PageReport } from "./geo-page";
import { AI_CRAWLERS, isAllowed, parseRobots } from "./robots";

export type { PageReport } from "./geo-page";

export interface GeoScanDeps {
  allowHosts: AllowList;
  timeoutMs: number;
  maxBytes: number;
  /** Whole scan budget: pages after it are skipped (the payment's validity window is finite). */
  budgetMs?: number;
  resolve?: Resolver;
}

export interface GeoReport {
  url: string;
  scannedAt: string;
  maxPages: number;
  pagesScanned: number;
  /** 0–100: page checks (60, averaged over pages) + llms.txt (15) + AI crawler access (25). */
  score: number;
  pages: PageReport[];
  llmsTxt: { url: string; present: boolean; bytes: number | null; title: string | null; links: number };
  robotsTxt: {
    url: string;
    present: boolean;
    crawlers: Array<{ name: string; operator: string; purpose: string; allowed: boolean; rule: string | null }>;
  };
  recommendations: string[];
}

const HTML_ACCEPT = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5";
const USER_AGENT = "Brainbox/0.1 (answer-engine readiness scan)";

/** Refuses, before any payment, a URL that is not http(s) or names a blocked address outright (no DNS). */
export function preflightUrl(raw: string, allowHosts: AllowList): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid("url", "url must be an absolute http(s) URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw invalid("url", "url must be http or https");
  const host = normalizeHostname(url.hostname);
  const port = url.port ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
  const verdict = classifyHostname(host);
  if (verdict?.kind === "blocked" && !isAllowListed(allowHosts, host, port)) {
    throw new AppError("invalid_request", `refusing to scan ${url.href}: ${host} is ${verdict.reason}`, { field: "url", reason: "address_blocked" });
  }
  url.hash = "";
  return url;
}

export async function geoScan(input: { url: string; maxPages: number }, deps: GeoScanDeps): Promise<GeoReport> {
  const start = preflightUrl(input.url, deps.allowHosts);
  const deadline = Date.now() + (deps.budgetMs ?? 60_000);
  const fetchText = async (url: string, accept: string) => {
    const result = await safeFetch(url, {
      allowHosts: deps.allowHosts,
      timeoutMs: Math.max(1000, Math.min(deps.timeoutMs, deadline - Date.now())),
      maxBytes: deps.maxBytes,
      accept,
      userAgent: USER_AGENT,
      resolve: deps.resolve,
    });
    return { ...result, text: new TextDecoder().decode(result.body) };
  };

  // The start page must load: otherwise there is nothing to report and nothing is charged.
  let first;
  try {
    first = await fetchText(start.href, HTML_ACCEPT);
  } catch (error) {
    if (error instanceof IngestError) {
      throw new AppError("invalid_request", `could not scan ${start.href}: ${error.message}`, { field: "url", reason: error.code });
    }
    throw error;
  }
  const origin = new URL(first.url).origin;
  const firstPage = analyzePage(first.url, first.contentType, first.text);
  const pages: PageReport[] = [firstPage.report];
  const queue = firstPage.links.filter((link) => new URL(link).origin === origin);
  const seen = new Set([normalize(start.href), normalize(first.url)]);
  while (pages.length < input.maxPages && queue.length > 0 && Date.now() < deadline) {
    const next = queue.shift()!;
    if (seen.has(normalize(next))) continue;
    seen.add(normalize(next));
    try {
      const page = await fetchText(next, HTML_ACCEPT);
      const analyzed = analyzePage(page.url, page.contentType, page.text);
      pages.push(analyzed.report);
      queue.push(...analyzed.links.filter((link) => new URL(link).origin === origin));
    } catch (error) {
      pages.push(failedPage(next, error instanceof Error ? error.message : String(error)));
    }
  }

  const [robots, llms] = await Promise.all([
    fetchText(`${origin}/robots.txt`, "text/plain").catch(() => null),
    fetchText(`${origin}/llms.txt`, "text/markdown,text/plain").catch(() => null),
  ]);
  const groups = robots ? parseRobots(robots.text) : [];
  const path = new URL(first.url).pathname + new URL(first.url).search;
  const crawlers = AI_CRAWLERS.map((c) => ({ ...c, ...pick(isAllowed(groups, c.name, path)) }));
  const llmsTxt = {
    url: `${origin}/llms.txt`,
    present: llms !== null && llms.text.trim().length > 0 && !/<html[\s>]/i.test(llms.text.slice(0, 500)),
    bytes: llms ? llms.body.byteLength : null,
    title: llms ? (/^#\s+(.+)$/m.exec(llms.text)?.[1]?.trim() ?? null) : null,
    links: llms ? (llms.text.match(/\]\((https?:\/\/|\/)[^)]+\)/g) ?? []).length : 0,
  };

  const scored = pages.filter((p) => p.ok);
  const pageScore = scored.length ? scored.reduce((sum, p) => sum + p.score, 0) / scored.length : 0;
  const allowedShare = crawlers.filter((c) => c.allowed).length / crawlers.length;
  const score = Math.round(pageScore + (llmsTxt.present ? 15 : 0) + 25 * allowedShare);
  return {
    url: start.href,
    scannedAt: new Date().toISOString(),
    maxPages: input.maxPages,
    pagesScanned: pages.length,
    score,
    pages,
    llmsTxt,
    robotsTxt: { url: `${origin}/robots.txt`, present: robots !== null, crawlers },
    recommendations: recommend(pages, llmsTxt.present, crawlers),
  };
}

const pick = ({ allowed, rule }: { allowed: boolean; rule: string | null }) => ({ allowed, rule });

function normalize(url: string): string {
  const u = new URL(url);
  u.hash = "";
  return u.href.replace(/\/$/, "");
}

function recommend(pages: PageReport[], llms: boolean, crawlers: Array<{ name: string; allowed: boolean }>): string[] {
  const out: string[] = [];
  if (!llms) out.push("Publish /llms.txt: a markdown index of your key pages for language models (llmstxt.org)");
  const blocked = crawlers.filter((c) => !c.allowed).map((c) => c.name);
  if (blocked.length) out.push(`robots.txt blocks ${blocked.join(", ")}: these answer engines cannot read or cite this page`);
  const counts = new Map<string, number>();
  for (const issue of pages.flatMap((p) => p.issues)) counts.set(issue, (counts.get(issue) ?? 0) + 1);
  for (const [issue, n] of [...counts].sort((a, b) => b[1] - a[1]).slice(0, 8)) out.push(n > 1 ? `${issue} (${n} pages)` : issue);
  return out;
}
