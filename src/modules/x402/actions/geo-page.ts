// geo/scan, one page: the facts answer engines read from its HTML, and its 60 points of the score.
import { parseHTML } from "linkedom";

export interface PageReport {
  url: string;
  ok: boolean;
  error?: string;
  title: string | null;
  description: string | null;
  canonical: string | null;
  lang: string | null;
  noindex: boolean;
  headings: { h1: string[]; h2: string[]; h3: string[] };
  structuredData: { types: string[]; blocks: number; invalidBlocks: number };
  openGraph: { title: string | null; description: string | null; image: string | null };
  wordCount: number;
  /** 0–60: this page's share of the score. */
  score: number;
  issues: string[];
}

const SKIP_EXTENSIONS = /\.(pdf|png|jpe?g|gif|webp|svg|ico|zip|gz|mp[34]|mov|avi|css|js|json|xml|txt|woff2?)$/i;
const MAX_LIST = 20;

export function failedPage(url: string, error: string): PageReport {
  return {
    url,
    ok: false,
    error,
    title: null,
    description: null,
    canonical: null,
    lang: null,
    noindex: false,
    headings: { h1: [], h2: [], h3: [] },
    structuredData: { types: [], blocks: 0, invalidBlocks: 0 },
    openGraph: { title: null, description: null, image: null },
    wordCount: 0,
    score: 0,
    issues: ["The page could not be fetched"],
  };
}

/** One page's facts and score, plus its links (absolute, http(s), no fragments, no obvious assets). */
export function analyzePage(url: string, contentType: string, html: string): { report: PageReport; links: string[] } {
  if (!/html/i.test(contentType) && !/<html[\s>]/i.test(html.slice(0, 2048))) {
    return { report: { ...failedPage(url, `not an HTML page (${contentType || "no content type"})`), issues: ["Not an HTML page"] }, links: [] };
  }
  const { document } = parseHTML(/<html[\s>]/i.test(html.slice(0, 4096)) ? html : `<!doctype html><html><head></head><body>${html}</body></html>`);
  const text = (el: { textContent: string | null } | null | undefined) => (el?.textContent ?? "").replace(/\s+/g, " ").trim();
  const meta = (selector: string) => document.querySelector(selector)?.getAttribute("content")?.trim() || null;
  const headingList = (tag: string) => Array.from(document.querySelectorAll(tag)).map((h) => text(h)).filter(Boolean).slice(0, MAX_LIST);

  const types: string[] = [];
  let blocks = 0;
  let invalidBlocks = 0;
  for (const script of Array.from(document.querySelectorAll('script[type="application/ld+json"]'))) {
    blocks++;
    try {
      collectTypes(JSON.parse(script.textContent ?? ""), types);
    } catch {
      invalidBlocks++;
    }
  }
  const body = document.querySelector("body");
  body?.querySelectorAll("script, style, noscript, template").forEach((el) => el.remove());
  const links = Array.from(document.querySelectorAll("a[href]"))
    .map((a) => {
      try {
        const link = new URL(a.getAttribute("href") ?? "", url);
        link.hash = "";
        return link.protocol === "http:" || link.protocol === "https:" ? link.href : null;
      } catch {
        return null;
      }
    })
    .filter((link): link is string => link !== null && !SKIP_EXTENSIONS.test(new URL(link).pathname));

  const report: PageReport = {
    url,
    ok: true,
    title: text(document.querySelector("title")) || null,
    description: meta('meta[name="description"]'),
    canonical: document.querySelector('link[rel="canonical"]')?.getAttribute("href") ?? null,
    lang: document.querySelector("html")?.getAttribute("lang") || null,
    noindex: /noindex/i.test(meta('meta[name="robots"]') ?? ""),
    headings: { h1: headingList("h1"), h2: headingList("h2"), h3: headingList("h3") },
    structuredData: { types: [...new Set(types)].slice(0, MAX_LIST), blocks, invalidBlocks },
    openGraph: { title: meta('meta[property="og:title"]'), description: meta('meta[property="og:description"]'), image: meta('meta[property="og:image"]') },
    wordCount: text(body).split(" ").filter(Boolean).length,
    score: 0,
    issues: [],
  };
  scorePage(report);
  return { report, links: [...new Set(links)] };
}

function collectTypes(node: unknown, into: string[]): void {
  if (Array.isArray(node)) return node.forEach((n) => collectTypes(n, into));
  if (typeof node !== "object" || node === null) return;
  const record = node as Record<string, unknown>;
  const type = record["@type"];
  if (typeof type === "string") into.push(type);
  if (Array.isArray(type)) into.push(...type.filter((t): t is string => typeof t === "string"));
  if (record["@graph"]) collectTypes(record["@graph"], into);
}

/** The page's 60 points: title 10, description 10, one h1 10, h2s 5, JSON-LD 15, canonical 3, lang 3, Open Graph 4. */
function scorePage(p: PageReport): void {
  const add = (points: number, ok: boolean, issue: string) => {
    if (ok) p.score += points;
    else p.issues.push(issue);
  };
  const titleLength = p.title?.length ?? 0;
  add(10, titleLength >= 10 && titleLength <= 70, p.title ? `Title is ${titleLength} characters (10-70 reads best)` : "No <title>");
  if (p.title && (titleLength < 10 || titleLength > 70)) p.score += 5;
  const descriptionLength = p.description?.length ?? 0;
  add(10, descriptionLength >= 50 && descriptionLength <= 160, p.description ? `Meta description is ${descriptionLength} characters (50-160 reads best)` : "No meta description");
  if (p.description && (descriptionLength < 50 || descriptionLength > 160)) p.score += 5;
  add(10, p.headings.h1.length === 1, p.headings.h1.length === 0 ? "No <h1>" : `${p.headings.h1.length} <h1> headings (one is clearest)`);
  if (p.headings.h1.length > 1) p.score += 5;
  add(5, p.headings.h2.length > 0, "No <h2> sections: answer engines quote well-sectioned pages");
  add(15, p.structuredData.types.length > 0, p.structuredData.invalidBlocks > 0 ? "JSON-LD present but not valid JSON" : "No JSON-LD structured data (schema.org)");
  add(3, p.canonical !== null, "No canonical link");
  add(3, p.lang !== null, "No lang attribute on <html>");
  add(4, p.openGraph.title !== null || p.openGraph.image !== null, "No Open Graph tags");
  if (p.noindex) p.issues.push("meta robots says noindex: search-based answer engines will skip this page");
}

