import { joinBlocks, parseBlocks, type Block } from "../lib/markdown-blocks.ts";
import { cleanTitle } from "./titles.ts";
import { hardWrap } from "../lib/hard-wrap.ts";

export { slugify, uniqueSlug } from "../lib/slug.ts";
export { appendRelatedLinks, extractWikiLinks, linkRelatedPages, type LinkablePage } from "../links/wiki-links.ts";

/**
 * Deterministic wiki synthesis (no LLM), for air-gapped brains: a document becomes one page when it
 * is short, else a page per section, split at the shallowest heading level that makes the pieces
 * fit, and overlong sections cut into paragraph windows. Code fences are never cut.
 */
export type SynthesizedPage = { title: string; markdown: string };
/** `pagePerSection`: every top-level section its own page, even when the document would fit one (sheets). */
export type SynthesizeOptions = { maxPageChars?: number; pagePerSection?: boolean };

export const DEFAULT_MAX_PAGE_CHARS = 4000;
const TITLE_SEPARATOR = " — ";

type Section = { path: string[]; blocks: Block[]; part?: number };

export function synthesizePages(
  doc: { title: string; markdown: string; sourceUrl?: string; pagePerSection?: boolean },
  opts: SynthesizeOptions = {},
): SynthesizedPage[] {
  const blocks = parseBlocks(doc.markdown);
  if (blocks.length === 0) return [];
  const firstHeading = blocks.find((b) => b.kind === "heading");
  const rootTitle = cleanTitle(doc.title) || (firstHeading?.kind === "heading" ? firstHeading.title : "") || "Untitled";
  const footer = doc.sourceUrl ? `Source: <${doc.sourceUrl}>` : "";
  const maxChars = Math.max(200, (opts.maxPageChars ?? DEFAULT_MAX_PAGE_CHARS) - (footer ? footer.length + 2 : 0));

  // A leading "# <document title>" is the document's own heading, not a section of it.
  const first = blocks[0]!;
  const ownHeading = first.kind === "heading" && sameTitle(first.title, rootTitle);
  const sections = splitSection([], blocks, ownHeading ? 1 : 0, maxChars, opts.pagePerSection ?? doc.pagePerSection);

  const seen = new Map<string, number>();
  return sections.map((section) => {
    let title = [rootTitle, ...section.path].join(TITLE_SEPARATOR) + (section.part ? ` (part ${section.part})` : "");
    const count = (seen.get(title.toLowerCase()) ?? 0) + 1;
    seen.set(title.toLowerCase(), count);
    if (count > 1) title = `${title} (${count})`; // two sections with the same heading path
    const body = joinBlocks(section.blocks);
    return { title, markdown: footer ? `${body}\n\n${footer}` : body };
  });
}

/**
 * `start` skips the section's own heading when looking for sub-headings. Splits at the shallowest
 * heading level present below it; recursion stops when a piece fits or has no headings left. `always`
 * splits this level even when it fits.
 */
function splitSection(path: string[], blocks: Block[], start: number, maxChars: number, always = false): Section[] {
  if (!always && sizeOf(blocks) <= maxChars) return [{ path, blocks }];
  const levels = blocks.slice(start).flatMap((b) => (b.kind === "heading" ? [b.level] : []));
  if (levels.length === 0) return paragraphWindows(path, blocks, maxChars);
  const top = Math.min(...levels);

  const preamble: Block[] = [];
  const subsections: Group[] = [];
  blocks.forEach((block, index) => {
    if (index >= start && block.kind === "heading" && block.level === top) subsections.push({ heading: block, blocks: [block] });
    else (subsections.at(-1)?.blocks ?? preamble).push(block);
  });
  const merged = mergeHeadingOnlyGroups({ heading: undefined, blocks: preamble }, subsections);
  const sections: Section[] = [];
  for (const group of merged) {
    if (!group.heading) {
      sections.push(...splitSection(path, group.blocks, start, maxChars));
      continue;
    }
    const ownHeadingEnd = group.blocks.indexOf(group.heading) + 1;
    sections.push(...splitSection([...path, group.heading.title || "Untitled section"], group.blocks, ownHeadingEnd, maxChars));
  }
  return sections;
}

type HeadingBlock = Extract<Block, { kind: "heading" }>;
type Group = { heading: HeadingBlock | undefined; blocks: Block[] };

/**
 * A group with headings but no content (a title or chapter heading right before the first
 * sub-section) joins the next group instead of becoming an empty page; a trailing one joins the
 * previous group.
 */
function mergeHeadingOnlyGroups(preamble: Group, subsections: Group[]): Group[] {
  const merged: Group[] = [];
  let carry: Block[] = [];
  for (const group of [preamble, ...subsections]) {
    if (group.blocks.every((b) => b.kind === "heading")) {
      carry.push(...group.blocks);
      continue;
    }
    merged.push({ heading: group.heading, blocks: [...carry, ...group.blocks] });
    carry = [];
  }
  const last = merged.at(-1);
  if (carry.length > 0) {
    if (last) last.blocks.push(...carry);
    else merged.push({ heading: subsections[0]?.heading, blocks: carry });
  }
  return merged;
}

/** Greedy packing of whole blocks; a paragraph longer than a page is cut at sentences, a fence never. */
function paragraphWindows(path: string[], blocks: Block[], maxChars: number): Section[] {
  const units = blocks.flatMap((b) => (b.kind === "paragraph" && b.text.length > maxChars ? splitParagraph(b.text, maxChars) : [b]));
  const windows: Block[][] = [];
  let current: Block[] = [];
  for (const unit of units) {
    const hasContent = current.some((b) => b.kind !== "heading"); // never leave a heading alone at a window's end
    if (hasContent && sizeOf([...current, unit]) > maxChars) {
      windows.push(current);
      current = [];
    }
    current.push(unit);
  }
  if (current.length > 0) windows.push(current);
  if (windows.length === 1) return [{ path, blocks: windows[0]! }];
  return windows.map((window, i) => ({ path, blocks: window, part: i + 1 }));
}

function splitParagraph(text: string, maxChars: number): Block[] {
  const sentences = text.split(/(?<=[.!?…。])\s+/);
  const pieces: string[] = [];
  let current = "";
  for (const sentence of sentences.flatMap((s) => hardWrap(s, maxChars))) {
    if (current && current.length + 1 + sentence.length > maxChars) {
      pieces.push(current);
      current = sentence;
    } else {
      current = current ? `${current} ${sentence}` : sentence;
    }
  }
  if (current) pieces.push(current);
  return pieces.map((piece) => ({ kind: "paragraph", text: piece }));
}

function sizeOf(blocks: readonly Block[]): number {
  return blocks.reduce((sum, b, i) => sum + b.text.length + (i > 0 ? 2 : 0), 0);
}

function sameTitle(a: string, b: string): boolean {
  const norm = (s: string) => s.toLowerCase().replace(/\s+/g, " ").trim();
  return norm(a) === norm(b);
}
