// What evidence.ts reads in a sentence's text beyond its words: whether it reads as prose, the ranges and
// bounds that hold a question's numbers, months of ISO dates, release versions, spans of time, capitals.
import { CAPITAL_NAMES, wordsOf } from "../../retrieval";
import { stem, type Sentence, type Words } from "./sentences";
import { END_WORDS, FUNCTION_WORD_LIST, PLACE_VERB_LIST, START_WORDS } from "./words/common";
import { MONTHS } from "./words/comparisons";

/**
 * Whether a sentence reads as prose: a short one always ("Phone: +1 555 0100"); a long one unless more than
 * half its tokens are no word (numbers, coordinates, symbols), or more than a quarter are and hardly any is a
 * function word ("the", "of", "and"…: a table flattened into a passage, "No . overall Title Original air date
 * U.S. viewers ( millions ) 40 The Christmas Wishing Tree '' …"). An infobox or table flattened into a passage
 * ("/ 40.77417 ° N 73.98556 ° W / … Coordinates : 40 ° 46 ′ 27 '' N …") matched some words of many questions
 * it does not answer; as evidence for `thin` it is left out (it caught more unanswerable questions at no
 * answerable cost; the cuts are stable over a wide range, measured with scripts/eval-clapnq.ts). Only a paragraph's sentences are read so: a table row or a list item is a statement however
 * many numbers it holds ("Q1: 12; Q2: 15; Q3: 9; …"), and a paragraph listing names ("Supported formats:
 * PDF, DOCX, HTML, …") holds no symbols.
 */
export function isProse(text: string): boolean {
  const tokens = text.split(/\s+/).filter(Boolean);
  if (tokens.length < PROSE_MIN_TOKENS) return true;
  const symbols = tokens.filter((t) => !/\p{L}{2,}/u.test(t)).length / tokens.length;
  if (symbols > PROSE_SYMBOL_SHARE) return false;
  return symbols <= TABLE_SYMBOL_SHARE || tokens.filter((t) => FUNCTION_WORDS.has(t.toLowerCase())).length >= tokens.length * PROSE_FUNCTION_SHARE;
}
export const PROSE_MIN_TOKENS = 12;
export const PROSE_SYMBOL_SHARE = 0.5;
export const TABLE_SYMBOL_SHARE = 0.25;
export const PROSE_FUNCTION_SHARE = 0.1;
export const FUNCTION_WORDS = new Set(FUNCTION_WORD_LIST);

export const NONE: Words = new Set<string>();
export const NO_ROWS: Set<number> = new Set();
/** "5-8", "5–8", "5 to 8": a range of whole numbers (not a date's "2025-11"). */
export const RANGE = /(?<![\d.,:/-])(\d{1,6}(?:\.\d+)?)\s*%?\s*(?:-|–|—|to)\s*(\d{1,6}(?:\.\d+)?)(?![\d.,:/-]\d)/g;
/**
 * A bound on one side, of a percentage: "below 95.0%", "over 99%". Only percentages, of a question's
 * percentage: "at least 2 years" said the "409" of "What does a 409 mean?".
 */
export const BOUND = /\b(below|under|less than|fewer than|up to|at most|above|over|more than|at least)\s+(\d{1,6}(?:\.\d+)?)\s*(?:%|percent\b)/gi;
/** The percentages a question states ("if uptime is 98%"). */
export const percentagesOf = (question: string) => [...question.matchAll(/(\d{1,6}(?:\.\d+)?)\s*(?:%|percent\b)/gi)].map((m) => Number(m[1]));
export const UPPER_BOUND = /^(?:below|under|less than|fewer than|up to|at most)$/i;

/**
 * A sentence's words with the question's numbers its ranges hold: "5-8" says 6 ("Who is on call in week 6?"),
 * "95.0% to 99.0%" says 98 and "below 95.0%" says 90 ("What credit do I get if uptime is 98%?").
 */
export function withRangesHolding(words: Words, text: string, numbers: number[], percentages: number[]): Words {
  const held = new Set<string>();
  for (const m of text.matchAll(RANGE)) {
    const [from, to] = [Number(m[1]), Number(m[2])];
    if (from < to) for (const n of numbers) if (n >= from && n <= to) held.add(String(n));
  }
  for (const m of text.matchAll(BOUND)) {
    const bound = Number(m[2]);
    const upper = UPPER_BOUND.test(m[1]!.replace(/\s+/g, " "));
    for (const n of percentages) if (upper ? n < bound : n > bound) held.add(String(n));
  }
  return held.size === 0 ? words : { has: (s) => held.has(s) || words.has(s) };
}

/** Month names and their short forms (as stems) → the month's number. */
export const MONTH_NUMBER = new Map(
  MONTHS.flatMap((name, i) => [
    [stem(name), i + 1] as const,
    [stem(name.slice(0, 3)), i + 1] as const,
  ]),
);
/** An ISO date ("2026-02-14"), the one way of writing a date in numbers that reads the same everywhere. */
export const ISO_DATE = /\b\d{4}-(\d{2})-\d{2}\b/g;

/** A sentence's words with the question's months its (or its heading's) ISO dates fall in. */
export function withMonthsDated(words: Words, text: string, months: string[]): Words {
  const dated = new Set([...text.matchAll(ISO_DATE)].map((m) => Number(m[1])));
  const held = months.filter((m) => dated.has(MONTH_NUMBER.get(m)!));
  return held.length === 0 ? words : { has: (s) => held.includes(s) || words.has(s) };
}

/** A question asking for a version or release, and a heading naming one ("4.1.0 (2026-08-02)", "v2.3", "Release 5"). */
export const VERSION_ASKED = /\b(?:which|what|in which) (?:version|release)\b/i;
export const LATEST_VERSION = /\b(?:latest|newest|current|most recent|last)\s+(?:version|release)\b/i;

/** Whether version `a` (its numbers: 4.10.0 → [4, 10, 0]) is newer than `b`. */
export function newerVersion(a: number[], b: number[]): boolean {
  for (let i = 0; i < Math.max(a.length, b.length); i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
  return false;
}

/** The heading of a page's newest release ("## 4.2.0 (2026-10-14)"), by its version number; undefined when none. */
export function newestVersionHeading(sentences: Sentence[]): string | undefined {
  let best: { heading: string; parts: number[] } | undefined;
  for (const { heading } of sentences) {
    const version = heading === undefined ? null : /\bv?(\d+(?:\.\d+)+)\b/i.exec(heading);
    if (!version) continue;
    const parts = version[1]!.split(".").map(Number);
    if (!best || newerVersion(parts, best.parts)) best = { heading: heading!, parts };
  }
  return best?.heading;
}
export const VERSION = /\bv?\d+\.\d+(?:\.\d+)?\b|\b(?:version|release)\s+\d/i;

/** Words for when something starts, and for when it ends (stems): a question asking either names a bound. */
export const BOUND_WORDS = [new Set(START_WORDS.map(stem)), new Set(END_WORDS.map(stem))];
export const SPAN_BOUNDS = new Set(BOUND_WORDS.flatMap((group) => [...group]));
/** A start or an end said by a preposition before a time, in BOUND_WORDS' order: "from 12:00", "until 11:30". */
export const BOUND_BY_PREPOSITION = [/\bfrom\s+\d{1,2}(?:[:.]\d{2})?\b/i, /\b(?:until|till)\s+\d{1,2}(?:[:.]\d{2})?\b/i];
export const LAST = stem("last");
/** The verbs of "where is it …" that a place said as one says (saysPlace). */
export const PLACE_VERBS = new Set(PLACE_VERB_LIST.map(stem));

/**
 * How long something lasts, said as a length of time it goes on "for" or "takes": "keeps the rack running for
 * about 25 minutes", "the flight takes 2 hours".
 */
export const DURATION =
  /\b(?:for|takes?|took)\s+(?:about\s+|around\s+|roughly\s+|approximately\s+|nearly\s+|up to\s+|at least\s+|over\s+)?(?:\d+(?:[.,]\d+)?|an?|one|two|three|four|five|six|seven|eight|nine|ten|twelve|a few|several)\s+(?:second|minute|hour|day|week|month|year)s?\b/i;

/**
 * Whether a sentence says bound `b` in other words: a word of its group ("open" for "start"), or "from"/"until" a
 * time; how long something lasts by a length of time (DURATION).
 */
export function saysBound(b: string, words: Words, text: string): boolean {
  if (b === LAST) return DURATION.test(text);
  const at = BOUND_WORDS.findIndex((group) => group.has(b));
  return at >= 0 && ([...BOUND_WORDS[at]!].some((w) => words.has(w)) || BOUND_BY_PREPOSITION[at]!.test(text));
}
/**
 * A span of time, which says both its bounds: "from … to/until …", "8–15 May", "2019–2023", "9:00–17:00" (not a
 * phone's "555-0177"; not "until 18:00", which says only its end).
 */
export const SPAN =
  /\bfrom\b(?:[^.;:]|(?<=\d)[.:](?=\d)){1,40}?\b(?:to|until|till|through)\b|\b\d{1,2}\s*[–—-]\s*\d{1,2}\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)|\b(?:1[5-9]|20)\d{2}\s*[–—-]\s*(?:(?:1[5-9]|20)\d{2}|\d{2})\b|\b\d{1,2}[:.]\d{2}\s*[–—-]\s*\d{1,2}[:.]\d{2}\b/i;

/**
 * What a question names in capitals that would otherwise weigh nothing (lower-cased, as its terms are): a
 * letter after a word, "group B", "Plan C" (not "A" or "I", which are words), and "IT", "US" (CAPITAL_NAMES).
 */
export function capitalNames(question: string): Set<string> {
  const letters = [...question.matchAll(/(?<=\p{L}{2,}\s)([B-HJ-Z])(?![\p{L}\p{N}'’])/gu)];
  return new Set([...letters, ...question.matchAll(CAPITAL_NAMES)].map((m) => m[1]!.toLowerCase()));
}

/** A sentence says what the question names in capitals only in capitals ("Group: B", "the IT desk"), not as "b" or "it". */
export function withCapitalsAsWritten(words: Words, text: string, names: Set<string>): Words {
  const written = new Set([...text.matchAll(/(?<![\p{L}\p{N}])([B-HJ-Z]|IT|US)(?![\p{L}\p{N}])/gu)].map((m) => m[1]!.toLowerCase()));
  return { has: (s) => (names.has(s) ? written.has(s) : words.has(s)) };
}

/** A span's words with the question's words for its start or end. */
export const spanning = (words: Words, bounds: string[]): Words => ({ has: (s) => bounds.includes(s) || words.has(s) });

/** The union of word sets, without building it (a sentence with its title and headings, a whole page). */
export const anyOf = (...sets: Words[]): Words => ({ has: (word) => sets.some((set) => set.has(word)) });

/** How many of the pairs appear within 3 words of each other in the text (either order). */
export function pairsNear(pairs: [string, string][], text: string): number {
  const words = wordsOf(text).map(stem);
  const at = new Map<string, number[]>();
  words.forEach((w, i) => at.set(w, [...(at.get(w) ?? []), i]));
  return pairs.filter(([a, b]) => (at.get(a) ?? []).some((i) => (at.get(b) ?? []).some((j) => Math.abs(i - j) <= 3))).length;
}

