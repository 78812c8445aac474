// [[ref]] citations inside answers: keep only those naming a retrieved page, list them, rewrite them as links.
import { slugRef } from "../../lib/slug";

/** [[ref]] and [[ref|label]]. */
const CITATION = /\[\[([^\[\]|\n]+)(?:\|[^\[\]\n]*)?\]\]/g;

/** Removes citations whose ref `isValid` rejects; returns the tidied text and the valid refs in order of first use. */
export function keepValidCitations(text: string, isValid: (ref: string) => boolean): { text: string; refs: string[] } {
  const refs: string[] = [];
  const kept = text.replace(CITATION, (_, raw: string) => {
    const ref = slugRef(raw);
    if (!isValid(ref)) return "";
    if (!refs.includes(ref)) refs.push(ref);
    return `[[${ref}]]`;
  });
  return { text: tidy(kept), refs };
}

/** Replaces each [[ref]] by `link(ref)`. */
export function rewriteCitations(text: string, link: (ref: string) => string): string {
  return text.replace(CITATION, (_, raw: string) => link(slugRef(raw)));
}

/** Spaces left behind by removed citations: doubled spaces, space before punctuation. */
function tidy(text: string): string {
  return text
    .replace(/[ \t]{2,}/g, " ")
    .replace(/[ \t]+([.,;:!?)])(?=\s|$)/g, "$1") // not "./chart" in a quoted command
    .replace(/[ \t]+$/gm, "")
    .trim();
}
