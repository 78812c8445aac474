// A wiki page as a small standalone HTML document (what a citation link shows in a browser).
import type { PageView } from "./service";

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function pageDocument(page: PageView, brainName: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(page.title)} · ${escape(brainName)}</title>
<style>body{font:16px/1.55 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#222}
pre{overflow:auto;background:#f5f5f5;padding:.75rem}code{font-size:.92em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.25rem .5rem}
.meta{color:#666;font-size:.85em}</style></head>
<body><p class="meta">${escape(brainName)}</p><h1>${escape(page.title)}</h1>
${withoutTitleHeading(page.html, page.title)}
<p class="meta">Updated ${escape(page.updatedAt)}</p></body></html>`;
}

/** The page's HTML without an opening heading that repeats its title (a Markdown file's "# Title"): it is the document's h1 already. */
function withoutTitleHeading(html: string, title: string): string {
  const lead = /^\s*<h1[^>]*>([\s\S]*?)<\/h1>\s*/i.exec(html);
  const text = (s: string) => s.replace(/<[^>]+>/g, "").replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n))).replace(/&amp;/g, "&").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').trim().toLowerCase();
  return lead && text(lead[1]!) === title.trim().toLowerCase() ? html.slice(lead[0].length) : html;
}

/** True when the Accept header ranks text/html above JSON (a browser following a citation link). */
export function prefersHtml(accept: string | null): boolean {
  if (!accept) return false;
  const quality = (type: string) => {
    let best = 0;
    for (const part of accept.split(",")) {
      const [range = "", ...params] = part.trim().toLowerCase().split(";");
      const q = Number(params.map((p) => p.trim()).find((p) => p.startsWith("q="))?.slice(2) ?? 1);
      const matches = range === type || range === `${type.split("/")[0]}/*` || range === "*/*";
      const specificity = range === type ? 2 : range === "*/*" ? 0 : 1;
      if (matches) best = Math.max(best, (Number.isFinite(q) ? q : 0) + specificity * 1e-3);
    }
    return best;
  };
  return quality("text/html") > quality("application/json");
}
