// Markdown → HTML that is safe to show: marked renders, sanitize-html keeps only plain formatting, links to
// http(s), mailto: (GFM autolinks every e-mail address) or relative addresses, no scripts, styles or event handlers.
import { Marked } from "marked";
import sanitizeHtml from "sanitize-html";

const markdown = new Marked({ gfm: true, async: false });

const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: sanitizeHtml.defaults.allowedTags,
  allowedAttributes: { a: ["href", "title"], code: ["class"], th: ["align"], td: ["align"] },
  allowedSchemes: ["http", "https", "mailto"],
  allowedSchemesByTag: {},
  allowProtocolRelative: false,
  transformTags: { a: sanitizeHtml.simpleTransform("a", { rel: "noopener nofollow" }) },
};
SANITIZE.allowedAttributes = { ...(SANITIZE.allowedAttributes as Record<string, string[]>), a: ["href", "title", "rel"] };

export function renderMarkdown(md: string): string {
  return sanitizeHtml(markdown.parse(md) as string, SANITIZE);
}

/** Escapes text for a markdown link label: [ ] and \ would end or break it. */
export function markdownLabel(text: string): string {
  return text.replace(/([\\\[\]])/g, "\\$1");
}
