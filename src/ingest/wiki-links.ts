import { escapeRegExp } from "../lib/regexp.ts";
import { slugRef } from "../lib/slug.ts";
import { parseBlocks } from "./markdown-blocks.ts";

/**
 * Cross-links between wiki pages: `[[slug]]` links, and a trailing "Related:" line computed from
 * which page titles are mentioned in which page bodies.
 */
export type LinkablePage = { slug: string; title: string; markdown: string };

const RELATED_LINE = /\n*^Related: \[\[[^\]\n]+\]\](?:, \[\[[^\]\n]+\]\])*[ \t]*$\s*$(?![\s\S])/m;
const SOURCE_LINE = /^Source: <[^>\n]*>[ \t]*$/gm;
const WORD = /[\p{L}\p{N}_]+/gu;

/**
 * For each page, the slugs of the other pages whose title occurs in its body (case-insensitive, whole
 * words). Titles of one short word ("API", "Home") are skipped: they would link everything.
 */
export function linkRelatedPages(pages: ReadonlyArray<LinkablePage>): Map<string, string[]> {
  const candidates = pages
    .filter((p) => isLinkableTitle(p.title))
    .map((p) => ({ slug: p.slug, words: wordsOf(p.title), pattern: titlePattern(p.title) }));
  const related = new Map<string, string[]>();
  for (const page of pages) {
    const body = linkableBody(page.markdown);
    const bodyWords = new Set(wordsOf(body)); // cheap pre-filter before any regular expression runs
    const slugs = candidates
      .filter((c) => c.slug !== page.slug && c.words.every((w) => bodyWords.has(w)) && c.pattern.test(body))
      .map((c) => c.slug);
    related.set(page.slug, [...new Set(slugs)]);
  }
  return related;
}

/** Adds (or replaces) the trailing `Related: [[a]], [[b]]` line; no slugs removes it. Idempotent. */
export function appendRelatedLinks(markdown: string, slugs: readonly string[]): string {
  const body = markdown.replace(RELATED_LINE, "").trimEnd();
  const unique = [...new Set(slugs)];
  if (unique.length === 0) return body;
  const line = `Related: ${unique.map((s) => `[[${s}]]`).join(", ")}`;
  return body ? `${body}\n\n${line}` : line;
}

/** Targets of `[[slug]]` and `[[slug|label]]` links, in order, without duplicates; code is skipped. */
export function extractWikiLinks(markdown: string): string[] {
  const withoutCode = parseBlocks(markdown)
    .filter((block) => block.kind !== "fence")
    .map((block) => block.text.replace(/(`+)[^`]*?\1/g, "")) // inline code spans
    .join("\n\n");
  const targets: string[] = [];
  for (const match of withoutCode.matchAll(/\[\[([^\[\]|\n]+)(?:\|[^\[\]\n]*)?\]\]/g)) {
    const target = slugRef(match[1]!);
    if (target) targets.push(target);
  }
  return [...new Set(targets)];
}

function isLinkableTitle(title: string): boolean {
  const trimmed = title.trim();
  return wordsOf(trimmed).length >= 2 || trimmed.length >= 5;
}

/** The body without our own generated lines, so links do not keep themselves alive. */
/** The body as read: without the Related/Source lines, an inline `[[slug|Shown]]` link read as its text. */
function linkableBody(markdown: string): string {
  return markdown
    .replace(RELATED_LINE, "")
    .replace(SOURCE_LINE, "")
    .replace(/\[\[[^\]|\n]+\|([^\]\n]*)\]\]/g, "$1");
}

function wordsOf(text: string): string[] {
  return (text.toLowerCase().match(WORD) ?? []);
}

function titlePattern(title: string): RegExp {
  const escaped = title
    .trim()
    .split(/\s+/)
    .map(escapeRegExp)
    .join("\\s+");
  return new RegExp(`(?<![\\p{L}\\p{N}_])${escaped}(?![\\p{L}\\p{N}_])`, "iu");
}
