// Inline wikilinks: the first mention of each concept in a page's prose becomes `[[slug|As written]]`.
// Code, headings, existing links, autolinks and our generated lines are never touched.
import { escapeRegExp } from "../lib/regexp";
import { mentionBoundaries } from "./surface-pattern";

/** Concept links added per page at most (a page naming 5,000 concepts links the most salient ones). */
export const MAX_CONCEPT_LINKS_PER_PAGE = 25;

const PROTECTED = /```[\s\S]*?```|~~~[\s\S]*?~~~|`[^`\n]*`|\[\[[^\]\n]*\]\]|!?\[[^\]\n]*\]\([^)\n]*\)|<[^>\n]*>|^ {0,3}#.*$|^(?:Source|Related): .*$/gm;

/**
 * A name going on after the surface, on its line: "Aiko" of "Aiko Tanaka and Pieter de Vries" is the first word
 * of a name the brain has no page for (linked, it read as "[[aiko|Aiko]] Tanaka"); so is "Marie Curie" of
 * "Marie Curie Institute".
 */
const NAME_GOES_ON = /^[ \t]+(?:(?:de|van|von|der|den|da|di|del|du|la|le|bin|al|of)[ \t]+)?\p{Lu}\p{Ll}/u;

export interface LinkTarget {
  slug: string;
  /** Surface forms to look for, longest first. */
  surfaces: string[];
}


/** Every slug a page's text links, inline or on its `Related:` line (no markdown parse: a quick check). */
export function linkTargetsOf(markdown: string): string[] {
  return [...markdown.matchAll(/\[\[([^\[\]|\n]+)(?:\|[^\[\]\n]*)?\]\]/g)].map((m) => m[1]!.trim());
}

/**
 * Adds links for `targets` (most important first); returns the new markdown and the slugs linked.
 * `ignoreCase`: a surface matches in any case (a page title named mid-sentence, "the Marren workshop").
 */
export function linkConceptsInline(
  markdown: string,
  targets: LinkTarget[],
  max = MAX_CONCEPT_LINKS_PER_PAGE,
  opts: { ignoreCase?: boolean } = {},
): { markdown: string; linked: string[] } {
  let text = markdown;
  const linked: string[] = [];
  const already = new Set(linkTargetsOf(text));
  const allSurfaces = [...new Set(targets.flatMap((t) => t.surfaces))];
  // The ranges links may not touch, found again only after the text changed (a link was added).
  let protectedRanges: (readonly [number, number])[] | null = null;
  const inside = (start: number, end: number) => {
    protectedRanges ??= [...text.matchAll(PROTECTED)].map((m) => [m.index!, m.index! + m[0].length] as const);
    return protectedRanges.some(([a, b]) => start < b && end > a);
  };
  for (const target of targets) {
    if (linked.length >= max) break;
    if (already.has(target.slug)) continue;
    let done = false;
    for (const surface of target.surfaces) {
      if (done || surface.length < 2) continue;
      // A surface whose first word is nowhere in the text cannot match: no pattern to build.
      const first = surface.split(" ", 1)[0]!;
      if (opts.ignoreCase ? !text.toLowerCase().includes(first.toLowerCase()) : !text.includes(first)) continue;
      // Inside a longer name of another concept ("東京" in "東京タワー", "Paris" in "University of Paris") a
      // shorter one is not linked: that would break the longer name's link.
      const longer = allSurfaces.filter((l) => l.length > surface.length && l.includes(surface) && !target.surfaces.includes(l));
      const withinLonger = (start: number, end: number) =>
        longer.some((l) => {
          for (let at = text.indexOf(l, Math.max(0, end - l.length)); at >= 0 && at <= start; at = text.indexOf(l, at + 1)) if (at + l.length >= end) return true;
          return false;
        });
      // The plain body finds candidates (compiled by the engine); the word boundaries are checked on each, and
      // every start is tried in turn, as a pattern with a lookbehind would.
      const pattern = new RegExp(escapeRegExp(surface).replace(/ /g, "\\s+"), opts.ignoreCase ? "gi" : "g");
      const bounded = mentionBoundaries(surface, "\\p{L}\\p{N}_", "\\[|", "\\]");
      for (let m = pattern.exec(text); m; m = pattern.exec(text)) {
        const end = m.index + m[0].length;
        if (!bounded(text, m.index, end) || inside(m.index, end) || withinLonger(m.index, end) || NAME_GOES_ON.test(text.slice(end, end + 40))) {
          pattern.lastIndex = m.index + 1;
          continue;
        }
        const label = m[0].replace(/\s+/g, " ").replace(/[|\]]/g, " ");
        text = `${text.slice(0, m.index!)}[[${target.slug}|${label}]]${text.slice(m.index! + m[0].length)}`;
        protectedRanges = null;
        linked.push(target.slug);
        done = true;
        break;
      }
    }
  }
  return { markdown: text, linked };
}
