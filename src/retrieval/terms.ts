// Query text → full-text terms, exactly as DESIGN.md "Full text" measured best: lower-cased, split on runs of
// letters and digits, stopwords removed, duplicates dropped, each term quoted, OR-joined.
import { englishFrequency } from "../lib/english-frequency";
import { singular } from "../lib/singular";
import { ENGLISH_STOPWORDS, foreignFunctionWords } from "../lib/function-words";

/** ~50 of the commonest English function words: they barely change ranking but multiply FTS5's work. */
export const STOPWORDS = ENGLISH_STOPWORDS;

/** Beyond this many distinct terms the question is a document, not a query: the rest add cost, not recall. */
export const MAX_QUERY_TERMS = 48;

/** A word: a run of letters and digits, or a dotted number ("4.2", "1.28", "127.0.0.1": the full-text index
 * finds it as a phrase of its parts, and "5.0" no longer matches the "0" of "TLS 1.0"). */
const WORD = /\d+(?:\.\d+)+|[\p{L}\p{N}]+/gu;
/** Scripts written without spaces between words: Chinese, Japanese kana. */
export const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const CJK_RUNS = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]+|[^\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]+/gu;

/**
 * The words of a text, lower-cased, in order (stopwords kept). A run of CJK characters has no word breaks,
 * so it becomes its overlapping character pairs ("望远镜" → "望 远", "远 镜"; one character alone stays):
 * the full-text index holds those characters one by one (searchTextOf), and a pair is a phrase of two.
 */
export function wordsOf(text: string): string[] {
  const words = text.toLowerCase().match(WORD) ?? [];
  return CJK.test(text) ? words.flatMap(cjkPairs) : words;
}

function cjkPairs(word: string): string[] {
  if (!CJK.test(word)) return [word];
  return (word.match(CJK_RUNS) ?? []).flatMap((run) => {
    if (!CJK.test(run)) return [run];
    const chars = [...run];
    return chars.length === 1 ? chars : chars.slice(1).map((c, i) => `${chars[i]} ${c}`);
  });
}

/**
 * A negated auxiliary ("don't", "doesn't", "can't", "won't") is a function word, and so is the tail of "I'll",
 * "you're", "we've", "I'd": split on the apostrophe they left "don", "doesn", "ll" as terms, and "don", a rare
 * word (a title, a river), outweighed the rest of "What happens if I don't pass --delete?".
 */
const NEGATED_AUXILIARY = /(?<![\p{L}\p{N}])\p{L}+n['’]t(?![\p{L}\p{N}])/giu;
const CONTRACTED_TAIL = /(?<=\p{L})['’](?:ll|re|ve|d|m)(?![\p{L}\p{N}])/giu;
const withoutContractions = (text: string) => (/['’]/.test(text) ? text.replace(NEGATED_AUXILIARY, " ").replace(CONTRACTED_TAIL, " ") : text);

/**
 * Stopwords that are names when written in capitals: "IT" (information technology), "US" (the United States).
 * Exported for the answerer, which weighs them as names and finds them only in capitals.
 */
export const CAPITAL_NAMES = /(?<![\p{L}\p{N}])(IT|US)(?![\p{L}\p{N}])/gu;

/** Terms matched on at most, the query's own and the spellings added for them (lexical.ts builds its SQL from them). */
export const MAX_MATCHED_TERMS = 2 * MAX_QUERY_TERMS;

/**
 * Distinct non-stopword terms of a query, in first-seen order (a German, French, Spanish or Dutch question's
 * function words are stopwords too). A query of more than MAX_QUERY_TERMS keeps its most informative ones.
 */
export function queryTerms(text: string): string[] {
  const terms: string[] = [];
  const seen = new Set<string>();
  const words = wordsOf(withoutContractions(text));
  const foreign = foreignFunctionWords(words);
  const named = new Set([...text.matchAll(CAPITAL_NAMES)].map((m) => m[1]!.toLowerCase()));
  for (const word of words) {
    if (((STOPWORDS.has(word) || foreign.has(word)) && !named.has(word)) || seen.has(word)) continue;
    seen.add(word);
    terms.push(word);
  }
  return terms.length > MAX_QUERY_TERMS ? rarestTerms(terms, MAX_QUERY_TERMS) : terms;
}

/**
 * The `count` terms English uses least (a name or code it never uses first), in their first-seen order. A long
 * question's first words are as often preamble as its subject; the rare ones carry the ranking (IDF), and the
 * index's own counts would cost a query per term.
 */
function rarestTerms(terms: readonly string[], count: number): string[] {
  const { counts } = englishFrequency();
  const keep = new Set(
    terms
      .map((term, order) => ({ term, order, uses: counts.get(term) ?? 0 }))
      .sort((a, b) => a.uses - b.uses || a.order - b.order)
      .slice(0, count)
      .map((t) => t.term),
  );
  return terms.filter((t) => keep.has(t));
}

/** FTS5 MATCH expression: `"a" OR "b"`. Terms are letters and digits (a CJK pair: two letters and a space, a
 * phrase), so quoting is enough escaping. */
export function ftsMatch(terms: readonly string[]): string {
  return terms.map((t) => `"${t}"`).join(" OR ");
}

/** Second words that make a two-word verb written also as one word ("log in" / login, "roll back" / rollback). */
const PARTICLES: ReadonlySet<string> = new Set(["up", "out", "in", "on", "off", "over", "down", "back", "away"]);
const LETTERS = /^\p{L}+$/u;

/**
 * A query's two-word phrases as the one word they are also written as: "roll back" → rollback, "set up" →
 * setup, "fail over" → failover, "data base" → database. Technical writing joins them ("run `helm rollback`")
 * where questions split them. Both words are letters; the first is no stopword, nor the second unless it is a
 * particle. Matched as alternatives: a page holding the joined word holds both of its parts. `keep` picks the
 * first words worth pairing (a long question's chosen terms); at most MAX_QUERY_TERMS pairs.
 */
export function joinedPairs(query: string, keep: (first: string) => boolean = () => true): { joined: string; parts: [string, string] }[] {
  if (CJK.test(query)) return [];
  const lower = query.toLowerCase();
  const words = [...lower.matchAll(WORD)];
  const out: { joined: string; parts: [string, string] }[] = [];
  for (let i = 0; i + 1 < words.length; i++) {
    const [a, b] = [words[i]![0], words[i + 1]![0]];
    // Only words with nothing but spaces between them: "theory, don't" is no phrase.
    if (/\S/.test(lower.slice(words[i]!.index! + a.length, words[i + 1]!.index!))) continue;
    if (!LETTERS.test(a) || !LETTERS.test(b) || a.length < 2 || b.length < 2 || STOPWORDS.has(a) || (STOPWORDS.has(b) && !PARTICLES.has(b))) continue;
    if (a.length + b.length < 5 || !keep(a) || out.some((p) => p.joined === a + b)) continue;
    out.push({ joined: a + b, parts: [a, b] });
    if (out.length === MAX_QUERY_TERMS) break;
  }
  return out;
}

/** A query's joined pairs (above) whose first word is one of its terms, when a long query kept only some. */
export function pairsOfTerms(query: string, terms: readonly string[]): { joined: string; parts: [string, string] }[] {
  if (terms.length < MAX_QUERY_TERMS) return joinedPairs(query);
  const kept = new Set(terms);
  return joinedPairs(query, (first) => kept.has(first));
}

/** A word of two or three parts joined by hyphens, letters only ("Wi-Fi", "e-mail", "check-in"). */
const HYPHENATED = /(?<![\p{L}\p{N}-])(\p{L}+)-(\p{L}+)(?:-(\p{L}+))?(?![\p{L}\p{N}-])/gu;

/**
 * A text's hyphenated words written as one, lower-case ("Wi-Fi" → wifi, "e-mail" → email, "check-in" →
 * checkin): a question writes them either way, and "Is there wifi?" found no page saying "Wi-Fi".
 */
export function hyphenJoined(text: string): string[] {
  if (!text.includes("-")) return [];
  return [...text.matchAll(HYPHENATED)].map((m) => `${m[1]}${m[2]}${m[3] ?? ""}`.toLowerCase());
}

/**
 * Particles a compound noun ends in that its verb writes apart: "backup" is "back up", "shutdown" "shut down",
 * "failover" "fail over". Not "in" and "on": "cabin", "button" and "season" end so too.
 */
const SPLIT_PARTICLES = ["up", "out", "off", "over", "down", "back", "away"] as const;
/** The verb part must be a word English uses this often (SUBTLEX-US count): "disc" of "discover" is not. */
const MIN_VERB_COUNT = 500;
/** Words that are no verb of a compound: "without", "throughout". */
const NOT_VERBS: ReadonlySet<string> = new Set(["with", "through", "there", "where", "here"]);

/**
 * A query's compound words as the two words a page may write them as: "backups" → "back up" ("Proxmox backs
 * up every VM nightly"), "shutdown" → "shut down", "checkout" → "check out" (joinedPairs is the other way).
 * The first part is a common English word, the second a particle. Matched as alternatives: a
 * page holding both words holds the compound.
 */
export function splitCompounds(terms: readonly string[]): { term: string; parts: [string, string] }[] {
  const out: { term: string; parts: [string, string] }[] = [];
  for (const term of terms) {
    if (term.length < 5 || !LETTERS.test(term)) continue;
    const one = singular(term);
    const particle = SPLIT_PARTICLES.find((p) => one.endsWith(p) && one.length - p.length >= 3);
    if (!particle) continue;
    const verb = one.slice(0, -particle.length);
    if (!NOT_VERBS.has(verb) && (englishFrequency().counts.get(verb) ?? 0) >= MIN_VERB_COUNT) out.push({ term, parts: [verb, particle] });
  }
  return out;
}

/**
 * A question's consecutive terms (stopwords skipped) as the one compound word a page may write them as, the
 * second term first: "shoes on horses" → horseshoes, "ball for the foot" → football ("roll back" in the
 * question's own order is joinedPairs'). The first part is taken in the singular, as compounds are written.
 * Both terms are letters, three or more of them. Matched as alternatives: a page holding the compound holds
 * both of its parts.
 */
export function reversedCompounds(terms: readonly string[]): { joined: string; parts: [string, string] }[] {
  const out: { joined: string; parts: [string, string] }[] = [];
  for (let i = 0; i + 1 < terms.length; i++) {
    const [a, b] = [terms[i]!, terms[i + 1]!];
    if (a.length < 3 || b.length < 3 || !LETTERS.test(a) || !LETTERS.test(b)) continue;
    out.push({ joined: singular(b) + a, parts: [a, b] });
  }
  return out;
}
