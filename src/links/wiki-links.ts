import { codePointAt, codePointBefore, escapeRegExp } from "../lib/regexp.ts";
import { slugRef } from "../lib/slug.ts";
import { parseBlocks } from "../lib/markdown-blocks.ts";
import { linkConceptsInline, linkTargetsOf } from "./inline-links.ts";

export { linkTargetsOf };

/**
 * Cross-links between wiki pages: `[[slug]]` links, computed from which page titles are mentioned in which
 * page bodies: inline where the title is named, a trailing "Related:" line for the rest.
 */
export type LinkablePage = { slug: string; title: string; markdown: string };

const RELATED_LINE = /\n*^Related: \[\[[^\]\n]+\]\](?:, \[\[[^\]\n]+\]\])*[ \t]*$\s*$(?![\s\S])/m;
const SOURCE_LINE = /^Source: <[^>\n]*>[ \t]*$/gm;
const WORD = /[\p{L}\p{N}_]+/gu;
/** Titles checked against a page above which its words are gathered first to rule titles out. */
const PREFILTER_AT = 4;

/**
 * For each page, the slugs of the other pages whose title occurs in its body (case-insensitive, whole
 * words). Titles of one short word ("API", "Home") are skipped: they would link everything.
 */
export function linkRelatedPages(pages: ReadonlyArray<LinkablePage>): Map<string, string[]> {
  const candidates = pages
    .filter((p) => isLinkableTitle(p.title))
    .map((p) => {
      let matcher: ((text: string) => boolean) | null = null; // built when a body passes the word check
      return { slug: p.slug, words: wordsOf(p.title), names: (text: string) => (matcher ??= titleMatcher(p.title))(text) };
    });
  const related = new Map<string, string[]>();
  for (const page of pages) {
    const body = linkableBody(page.markdown);
    const others = candidates.filter((c) => c.slug !== page.slug);
    // Many titles: the body's words first, so most titles are ruled out without a search (a page against one
    // or two titles, as an inward link's check is, goes straight to the search).
    const bodyWords = others.length > PREFILTER_AT ? new Set(wordsOf(body)) : null;
    const slugs = others.filter((c) => (!bodyWords || c.words.every((w) => bodyWords.has(w))) && c.names(body)).map((c) => c.slug);
    related.set(page.slug, [...new Set(slugs)]);
  }
  return related;
}

/**
 * Links a page to the pages whose titles it names (`targets`, found by linkRelatedPages): the first mention
 * of each title the page does not link yet becomes `[[slug|As written]]`, in any case ("the Marren
 * workshop"); a title named only where no link can go (inside another link, a heading, code) goes on the
 * `Related:` line. Inline, a title link reads like a concept link, and which of the two pages came first no
 * longer decides how a page links a person or place that has a page of its own.
 */
export function addTitleLinks(markdown: string, targets: ReadonlyArray<{ slug: string; title: string }>): string {
  const linked = new Set(linkTargetsOf(markdown));
  const fresh = targets.filter((t) => !linked.has(t.slug));
  if (fresh.length === 0) return markdown;
  const surfaces = fresh.map((t) => ({ slug: t.slug, surfaces: [t.title.trim().replace(/\s+/g, " ")] }));
  const inline = linkConceptsInline(markdown, surfaces, Infinity, { ignoreCase: true });
  const rest = fresh.filter((t) => !inline.linked.includes(t.slug)).map((t) => t.slug);
  return rest.length ? appendRelatedLinks(inline.markdown, [...relatedLinksOf(inline.markdown), ...rest]) : inline.markdown;
}

/** The slugs on a page's `Related:` line. */
export function relatedLinksOf(markdown: string): string[] {
  return (/^Related: (.*)$/m.exec(markdown)?.[1] ?? "").match(/\[\[([^\]]+)\]\]/g)?.map((l) => l.slice(2, -2)) ?? [];
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

/** The body as read: without the Related/Source lines, an inline `[[slug|Shown]]` link read as its text. */
export function linkableBody(markdown: string): string {
  return markdown
    .replace(RELATED_LINE, "")
    .replace(SOURCE_LINE, "")
    .replace(/\[\[[^\]|\n]+\|([^\]\n]*)\]\]/g, "$1");
}

function wordsOf(text: string): string[] {
  return (text.toLowerCase().match(WORD) ?? []);
}

const WORD_CHAR = /^[\p{L}\p{N}_]$/u;

/**
 * Whether a text names `title` (case-insensitive, whole words). The pattern is the title alone: a Unicode
 * class in it (`\p{L}` in a lookbehind) made each new pattern cost ~25 µs to compile and a page check ~70
 * µs. The characters around each match are checked with one compiled class, every start tried in turn.
 */
function titleMatcher(title: string): (text: string) => boolean {
  const escaped = title
    .trim()
    .split(/\s+/)
    .map(escapeRegExp)
    .join("\\s+");
  const pattern = new RegExp(escaped, "gi");
  return (text) => {
    pattern.lastIndex = 0;
    for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
      if (!WORD_CHAR.test(codePointBefore(text, m.index)) && !WORD_CHAR.test(codePointAt(text, m.index + m[0].length))) return true;
      pattern.lastIndex = m.index + 1;
    }
    return false;
  };
}
