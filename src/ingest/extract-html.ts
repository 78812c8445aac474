import { Readability } from "@mozilla/readability";
import { parseHTML } from "linkedom";
import { htmlToMarkdown } from "./html-to-markdown.ts";
import { pickTitle, titleFromName } from "./titles.ts";
import type { DocumentSource, ExtractedDocument as Extracted } from "./types.ts";


// Page chrome removed when Readability finds no article and we fall back to the whole body.
const CHROME = "script, style, noscript, template, nav, header, footer, aside, form, iframe, svg";
/** Elements whose class or id may say they ask for cookie or privacy consent. */
const CONSENT = ["cookie", "consent", "gdpr", "onetrust"].flatMap((word) => [`[class*="${word}" i]`, `[id*="${word}" i]`]).join(", ");
/** A banner's few words ask to accept cookies; a recipe's "cookie" box holds the recipe. */
const BANNER_CHARS = 500;
const ASKS_CONSENT = /\b(?:cookies?|consent)\b[\s\S]*\b(?:accept|agree|allow|privacy|settings|preferences|experience)\b|\b(?:accept|agree|allow)\b[\s\S]*\bcookies?\b/i;

function isConsentBanner(el: { textContent: string | null; querySelector(selector: string): unknown }): boolean {
  const text = (el.textContent ?? "").trim();
  return text.length <= BANNER_CHARS && ASKS_CONSENT.test(text) && !el.querySelector("h1, h2, article, main");
}

const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** Readability picks the main content (drops navigation, ads, footers); turndown makes it Markdown. */
export function extractHtml(html: string, source: DocumentSource): Extracted {
  const document = parseDocument(html);
  const headTitle = document.querySelector("title")?.textContent ?? "";
  const h1s = Array.from(document.querySelectorAll("h1")).map((h) => (h.textContent ?? "").trim());
  absolutizeLinks(document, source.url);

  // Cookie and consent banners: Readability keeps one that sits beside a short article.
  for (const el of Array.from(document.querySelectorAll(CONSENT))) if (isConsentBanner(el)) el.remove();
  const article = new Readability(document as unknown as Document).parse();
  let contentHtml = article?.textContent?.trim() ? (article.content ?? "") : "";
  // Readability takes the byline out of the article: it says who wrote it ("Who wrote the heat pump article?").
  const byline = article?.byline?.replace(/\s+/g, " ").trim();
  if (contentHtml && byline && !article!.textContent!.includes(byline)) contentHtml = `<p>${escapeHtml(byline)}</p>${contentHtml}`;
  if (!contentHtml) {
    document.querySelectorAll(CHROME).forEach((el) => el.remove());
    contentHtml = document.body?.innerHTML ?? "";
  }

  const singleH1 = h1s.length === 1 ? h1s[0] : undefined;
  // "Install guide | Docs site" → "Install guide" when the page's only h1 says so.
  const fullTitle = article?.title || headTitle;
  const h1InTitle = singleH1 && fullTitle.toLowerCase().includes(singleH1.toLowerCase()) ? singleH1 : undefined;
  const title = pickTitle(h1InTitle, fullTitle, singleH1 ?? h1s[0], titleFromName(source.filename, source.url));
  return { title, markdown: htmlToMarkdown(contentHtml) };
}

/** linkedom cannot build a document from a fragment: give it the html/body it expects. */
function parseDocument(html: string) {
  const isFullDocument = /<html[\s>]/i.test(html.slice(0, 4096));
  return parseHTML(isFullDocument ? html : `<!doctype html><html><head></head><body>${html}</body></html>`).document;
}

/** Links in the wiki must work away from the page: resolve them against <base> or the page URL. */
function absolutizeLinks(document: ReturnType<typeof parseDocument>, pageUrl: string | undefined): void {
  const base = resolveUrl(document.querySelector("base[href]")?.getAttribute("href") ?? "", pageUrl) ?? pageUrl;
  for (const [selector, attribute] of [["a[href]", "href"], ["img[src]", "src"]] as const) {
    for (const el of Array.from(document.querySelectorAll(selector))) {
      const value = el.getAttribute(attribute) ?? "";
      if (/^\s*javascript:/i.test(value)) {
        el.removeAttribute(attribute);
        continue;
      }
      if (!base || value.startsWith("#") || value.startsWith("data:")) continue;
      const absolute = resolveUrl(value, base);
      if (absolute) el.setAttribute(attribute, absolute);
    }
  }
}

function resolveUrl(value: string, base: string | undefined): string | undefined {
  if (!value) return undefined;
  try {
    return new URL(value, base).href;
  } catch {
    return undefined;
  }
}
