// The singular of an English plural, by its ending: enough to fold "harbour towns" into "harbour town"
// (concept keys) and to write "horses" as the "horse" of "horseshoe" (compound search terms). An "-es"
// ending is "-e" + "s" ("caches", "horses") or an "-es" plural ("flashes", "buses"): the word list of
// spoken English (english-frequency.ts) says which singular is a word, more often written.
import { englishFrequency } from "./english-frequency";

/** "-ses" of a Latin "-sis" ("analyses", "crises"), when that singular is the word. */
const LATIN_SES = /(?:y|i|e)ses$/;
/** Endings whose plural takes "-es" when nothing says otherwise: "-sh", "-ch", "-x", "-z", "-ss", "-s". */
const SIBILANT_ES = /(?:sh|ch|x|z|s)es$/;
/** "-oes" may be "-o" + "es" ("heroes"), when the word list knows that singular of three letters or more. */
const O_ES = /...oes$/;

/** "cities" → city, "towns" → town, "flashes" → flash, "caches" → cache; "glass", "status", "analysis" and "photos" stay. */
export function singular(word: string): string {
  if (word.length > 4 && word.endsWith("ies")) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith("es")) return singularOfEs(word);
  if (word.length > 3 && word.endsWith("s") && !/(ss|us|is|os)$/.test(word)) return word.slice(0, -1);
  return word;
}

function singularOfEs(word: string): string {
  const counts = englishFrequency().counts;
  // "-es" is the plural's only after a hissing sound or an "o": "notes" is never "not", "toes" never "to".
  const candidates = SIBILANT_ES.test(word) || O_ES.test(word) ? [word.slice(0, -1), word.slice(0, -2)] : [word.slice(0, -1)];
  if (LATIN_SES.test(word)) candidates.push(`${word.slice(0, -2)}is`);
  if (word.endsWith("zzes")) candidates.push(word.slice(0, -3)); // "quizzes": the "z" doubled
  const known = candidates.map((c) => [c, counts.get(c) ?? 0] as const).filter(([, n]) => n > 0);
  if (known.length) return known.reduce((a, b) => (b[1] > a[1] ? b : a))[0];
  return SIBILANT_ES.test(word) ? word.slice(0, -2) : word.slice(0, -1);
}
