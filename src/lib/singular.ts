// The singular of an English plural, by its ending only: enough to fold "harbour towns" into "harbour town"
// (concept keys) and to write "horses" as the "horse" of "horseshoe" (compound search terms).

/** "cities" → city, "towns" → town; "glass", "status", "analysis" and "photos" stay as they are. */
export function singular(word: string): string {
  if (word.length > 4 && word.endsWith("ies")) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith("s") && !/(ss|us|is|os)$/.test(word)) return word.slice(0, -1);
  return word;
}
