// Query text → full-text terms, exactly as DESIGN.md "Full text" measured best: lower-cased, split on runs of
// letters and digits, stopwords removed, duplicates dropped, each term quoted, OR-joined.

/** ~50 of the commonest English function words: they barely change ranking but multiply FTS5's work. */
export const STOPWORDS: ReadonlySet<string> = new Set(
  (
    "a an and are as at be been but by can could did do does for from had has have he her his how i if in into is it its " +
    "me my no not of on or our she so than that the their them then there these they this those to was we were what " +
    "when where which who whom why will with would you your"
  ).split(" "),
);

/** Beyond this many distinct terms the question is a document, not a query: the rest add cost, not recall. */
export const MAX_QUERY_TERMS = 48;

const WORD = /[\p{L}\p{N}]+/gu;

/** The words of a text, lower-cased, in order (stopwords kept). */
export function wordsOf(text: string): string[] {
  return text.toLowerCase().match(WORD) ?? [];
}

/** Distinct non-stopword terms of a query, in first-seen order. */
export function queryTerms(text: string): string[] {
  const terms: string[] = [];
  const seen = new Set<string>();
  for (const word of wordsOf(text)) {
    if (STOPWORDS.has(word) || seen.has(word)) continue;
    seen.add(word);
    terms.push(word);
    if (terms.length === MAX_QUERY_TERMS) break;
  }
  return terms;
}

/** FTS5 MATCH expression: `"a" OR "b"`. Terms are letters and digits only, so quoting is enough escaping. */
export function ftsMatch(terms: readonly string[]): string {
  return terms.map((t) => `"${t}"`).join(" OR ");
}
