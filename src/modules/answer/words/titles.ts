// Titles English writes before a name ("Princess Caroline", "Sultan Murad II"): a page is often titled
// without them, and the female and male ones tell a mother from a father in "the son of X and Y".

export const FEMALE_TITLES = ["princess", "queen", "duchess", "countess", "empress", "lady", "baroness", "margravine", "marchioness", "archduchess", "grand duchess", "dame", "mrs", "madame", "sultana", "tsarina", "begum"] as const;
export const MALE_TITLES = ["prince", "king", "duke", "count", "emperor", "lord", "baron", "margrave", "marquess", "archduke", "grand duke", "sir", "mr", "sultan", "tsar", "shah", "emir", "caliph", "pope", "earl", "viscount", "elector"] as const;
export const OTHER_TITLES = ["saint", "st", "dr", "general", "colonel", "captain", "president", "bishop", "archbishop", "cardinal", "father", "rev", "reverend"] as const;

const ALL = [...FEMALE_TITLES, ...MALE_TITLES, ...OTHER_TITLES].sort((a, b) => b.length - a.length);
const LEADING = new RegExp(`^(?:${ALL.join("|")})\\.?\\s+`, "i");

/** A name without the title it opens with ("Sultan Murad II" → "Murad II"), or null when it opens with none. */
export function withoutTitle(name: string): string | null {
  const bare = name.replace(LEADING, "");
  return bare !== name && bare.length > 1 ? bare : null;
}

/** "female" or "male" when a name opens with a title that says so. */
export function titledSex(name: string): "female" | "male" | null {
  const first = name.toLowerCase().split(/\s+/)[0]!.replace(/\.$/, "");
  if ((FEMALE_TITLES as readonly string[]).includes(first)) return "female";
  if ((MALE_TITLES as readonly string[]).includes(first)) return "male";
  return null;
}
