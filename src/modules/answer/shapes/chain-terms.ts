// The words a chained question asks with, each weighed by how rare it is in English, and whether a sentence
// says one: its own stem, or for a relation word one of the words pages say it with ("spouse" by "married").
// A hop of the chain (chain.ts) is the sentence that says most of the weight the hops before left unsaid.
import { STOPWORDS, wordsOf } from "../../../retrieval";
import { backgroundWeight } from "../term-weights";
import { stem, stemSet } from "../sentences";
import { PLACE_OPENERS } from "../words/names";
import { CAST_CUES, KINSHIP, PERSON_RELATIONS, RELATION_CUES, VERB_CUES } from "../words/relations";
import { ruleOn, RULES } from "../rules";
import { nameForms, plain } from "./pages";

export interface AskedTerm {
  word: string;
  stem: string;
  weight: number;
  /** Phrases a page says this relation word with, lower-case ("married" for "spouse"). */
  cues: readonly string[];
  /** Where the question writes it (word index). */
  at: number;
  /** The name the question writes it in ("Mary Poppins"), plain: only a text saying the whole name says it (rule chain.whole-names). */
  name?: WrittenName;
  /** The noun the question's wh-word asks for ("WHICH COMPANY followed …", "what CITY is … from"): the kind of the answer (rule chain.typed-head). */
  head?: true;
}

/** Words that ask rather than say what is asked (beyond stopwords): no hop has to say them. */
const ASKING = new Set(["whose", "name", "also", "did", "does", "do", "many", "much", "type", "kind", "one", "other", "else", "besides", "along"]);

/** Verbs a question asks a relation with ("Who MARRIED …"): said as that relation's words are. */
const VERB_RELATIONS: Record<string, string> = {
  married: "spouse", marry: "spouse", marries: "spouse", wed: "spouse", founded: "founder", wrote: "author", written: "author",
  directed: "director", composed: "composer", produced: "producer", published: "publisher", owns: "owner", owned: "owner", created: "creator",
};

/** Rare words weigh most (squared, as term-weights.ts sharpens the background rarity). */
const weightOf = (word: string) => backgroundWeight(word) ** 2;

/**
 * The question's terms. `names` are the names it writes (page titles, capitalized runs): a term inside one is
 * said only with the whole name, so "Freak Talks About Sex" does not say "What We Talk About When We Talk
 * About Love" by its common words.
 */
export function askedTerms(question: string, names: readonly WrittenName[] = []): AskedTerm[] {
  const seen = new Set<string>();
  const out: AskedTerm[] = [];
  const all = wordsOf(question);
  const named: (WrittenName | undefined)[] = [];
  if (ruleOn(RULES.chainWholeNames)) for (const n of names) if (n.to > n.from) for (let k = n.from; k <= n.to; k++) named[k] = n;
  const head = ruleOn(RULES.chainTypedHead) ? headAt(all) : -1;
  for (const [at, word] of all.entries()) {
    if (STOPWORDS.has(word) || ASKING.has(word) || word.length < 2) continue;
    const s = stem(word);
    if (at === head) {
      // The head is a term of its own: "the company that made X" later in the question is another company.
      out.push({ word, stem: s, weight: weightOf(word), cues: [], at, head: true });
      continue;
    }
    if (seen.has(s)) continue;
    seen.add(s);
    const cues = [...(RELATION_CUES[VERB_RELATIONS[word] ?? word] ?? RELATION_CUES[word.replace(/s$/, "")] ?? []), ...moreCues(word)];
    const name = named[at];
    out.push({ word, stem: s, weight: weightOf(word), cues: [...new Set(cues)].filter((c) => c !== "by"), at, ...(name ? { name } : {}) });
  }
  return out;
}

/** Cues no relation list gives: a cast's words for an actor (chain.cast-cues), a verb's other words (chain.verb-cues). */
function moreCues(word: string): readonly string[] {
  const cast = ruleOn(RULES.chainCastCues) && (CAST_WORDS.has(word) || CAST_WORDS.has(word.replace(/s$/, ""))) ? CAST_CUES : [];
  const verb = ruleOn(RULES.chainVerbCues) ? (VERB_CUES[word] ?? []) : [];
  return [...cast, ...verb];
}

const CAST_WORDS = new Set(["actor", "actress", "star"]);

const WH = new Set(["which", "what"]);
const LEADS = new Set(["in", "at", "on", "from", "for", "to", "by", "during", "of", "with"]);
const AUXILIARIES = new Set(["is", "was", "are", "were", "does", "did", "do", "has", "had", "have", "can", "could", "will", "would"]);

/**
 * Where the wh-word's noun is: "Which COMPANY followed …", "In which COUNTRY is …", "What type of GOVERNMENT
 * did …", "Which professional sports TEAM does …" (the last word before the verb, within three), or -1.
 */
export function headAt(words: readonly string[]): number {
  let i = LEADS.has(words[0] ?? "") ? 1 : 0;
  if (!WH.has(words[i] ?? "")) return -1;
  i++;
  if (/^(?:type|kind|sort)$/.test(words[i] ?? "") && words[i + 1] === "of") i += 2;
  const first = words[i];
  if (!first || AUXILIARIES.has(first) || STOPWORDS.has(first)) return -1;
  for (let k = i + 1; k <= i + 3 && k < words.length; k++) if (AUXILIARIES.has(words[k]!)) return k - 1;
  return i;
}

/** A name as the question writes it: plain, and, when the question capitalizes it, the pattern a text writes it capitalized with. */
export interface WrittenName {
  plain: string;
  /** Where the question writes it (word indexes). */
  from: number;
  to: number;
  cased: RegExp | null;
}

const WORD = /\d+(?:\.\d+)+|[\p{L}\p{N}]+/gu;
const unaccented = (s: string) => s.normalize("NFKD").replace(/\p{M}/gu, "");

/**
 * Where the question writes each of `names` (longest first, no two overlapping). A name the question
 * capitalizes ("the song The Story") is said by a text only capitalized the same way ("tell the story of" is
 * not it); one it writes lower-case ("avengers age of ultron") by any case.
 */
export function writtenNames(question: string, names: readonly string[]): WrittenName[] {
  const raw = unaccented(question).match(WORD) ?? [];
  const words = raw.map((w) => plain(w));
  const taken = new Array<boolean>(words.length).fill(false);
  const out: WrittenName[] = [];
  const forms = [...new Set(names.map(plain).filter(Boolean))].sort((a, b) => b.length - a.length);
  for (const form of forms) {
    const parts = form.split(" ");
    for (let i = 0; i + parts.length <= words.length; i++) {
      if (!parts.every((p, k) => words[i + k] === p && !taken[i + k])) continue;
      for (let k = 0; k < parts.length; k++) taken[i + k] = true;
      const as = raw.slice(i, i + parts.length);
      const cased = as.some((w) => /^\p{Lu}/u.test(w)) ? new RegExp(`(?<![\\p{L}\\p{N}])${as.map(casedWord).join("[^\\p{L}\\p{N}]+")}(?![\\p{L}\\p{N}])`, "u") : null;
      out.push({ plain: form, from: i, to: i + parts.length - 1, cased });
    }
  }
  return out;
}

/** A word as the question writes it: a capital kept, any other letter in either case. */
const casedWord = (w: string) => [...w].map((c, i) => (c.toLowerCase() === c.toUpperCase() || (i === 0 && c !== c.toLowerCase()) ? c.replace(/[.*+?^${}()|[\]\\]/g, "\\$&") : `[${c.toLowerCase()}${c.toUpperCase()}]`)).join("");

/** Whether a text (read as `saidOf`) writes the name; its page's title names it in any case (the page is about it). */
export const writes = (said: Said, name: WrittenName) =>
  name.cased ? name.cased.test(said.text) || said.title.includes(` ${name.plain} `) : said.lower.includes(` ${name.plain} `);

/**
 * The words a page says a relation of the question's with, to find whom it is said of: its cues; for one who
 * makes or plays ("the SINGER of …", "the ACTOR that plays …") also the "by" and "starring" a page names them after.
 */
export function relationCues(word: string): string[] {
  const relation = VERB_RELATIONS[word] ?? word.replace(/s$/, "");
  const cues = [...(RELATION_CUES[relation] ?? [])];
  if ((PERSON_RELATIONS as readonly string[]).includes(relation) && !KINSHIP.has(relation)) cues.push("by", "starring", "starred", "played", "performed", "sung", "led");
  if (ruleOn(RULES.chainCastCues) && (CAST_WORDS.has(word) || CAST_WORDS.has(relation))) cues.push(...CAST_CUES);
  return cues.filter((c) => !KINSHIP.has(c));
}

/** What a text says, read once: its stems and its plain lower-case form. */
export interface Said {
  stems: Set<string>;
  lower: string;
  /** The text without accents, its case kept. */
  text: string;
  /** The page's title, plain. */
  title: string;
}

export const saidOf = (sentence: string, title = ""): Said => ({ stems: stemSet(`${sentence} ${title}`), lower: ` ${plain(`${sentence} ${title}`)} `, text: unaccented(sentence), title: ` ${plain(title)} ` });

/** Whether a sentence (with its page's title) says the term: the stem, or a cue of the relation. */
export const says = (said: Said, term: AskedTerm) =>
  term.name !== undefined ? writes(said, term.name) : said.stems.has(term.stem) || term.cues.some((c) => said.lower.includes(` ${plain(c)} `));

/** Whether a text mentions a name: one of its forms (nameForms), or a person's surname alone ("Bettany"). */
export function mentions(text: string, name: string): boolean {
  const forms = ruleOn(RULES.chainNameForms) ? nameForms(name) : [name];
  return forms.some((form) => mentionsForm(text, form));
}

function mentionsForm(text: string, name: string): boolean {
  const lower = ` ${plain(text)} `;
  const n = plain(name);
  if (!n) return false;
  if (lower.includes(` ${n} `)) return true;
  const words = n.split(" ");
  const last = words.at(-1)!;
  // A surname alone stands for a person's name, not "America" for "Bank of America".
  const joined = ruleOn(RULES.chainAmpersandTitles) && name.includes("&");
  const personal = words.length <= 3 && !joined && !/\b(?:of|the|and|de|for)\b/.test(n) && !(ruleOn(RULES.chainNameForms) && words.slice(0, -1).some((w) => PLACE_OPENERS.has(w)));
  if (!personal || words.length < 2 || last.length <= 3 || /^\d+$/.test(last) || !lower.includes(` ${last} `)) return false;
  return !ruleOn(RULES.chainNameForms) || surnameWritten(text, name);
}

/**
 * A surname alone is written as one: capitalized, and not as the last word of another name ("Murray" of "Andy
 * Murray" is not "Jamie Murray"; "31 states" is not "United States").
 */
function surnameWritten(text: string, name: string): boolean {
  const parts = name.trim().split(/\s+/);
  const last = parts.at(-1)!.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  for (const m of text.matchAll(new RegExp(`(?<![\\p{L}])${last}(?![\\p{L}])`, "gu"))) {
    const before = /(\p{Lu}[\p{L}.'’-]*)\s+$/u.exec(text.slice(0, m.index));
    if (!before || /^(?:The|A|An|In|On|At|By|Of|And|Mr|Mrs|Ms|Dr)\.?$/.test(before[1]!) || parts.includes(before[1]!)) return true;
  }
  return false;
}

const ARTICLES = new Set(["the", "a", "an"]);

/** Whether a sentence says a term as a relation is said: its stem, or any of its cues with the "by" a maker is named after. */
function saysRelation(sentence: string, term: AskedTerm): boolean {
  const lower = ` ${plain(sentence)} `;
  return says(saidOf(sentence), term) || relationCues(term.word).some((c) => lower.includes(` ${plain(c)} `));
}

/**
 * The terms a hop says by saying the others: a hop that says "Vision … Age of Ultron" of "the ACTOR that
 * PLAYS Vision in Avengers: Age of Ultron" has found that actor, so the clause's head and verb are said too.
 * That is every term from the noun phrase opening before the first term said (its article, not the one of a
 * title right before it: "the Tamworth manifesto") to the last term said.
 */
export function clauseOf(question: string, terms: readonly AskedTerm[], said: readonly AskedTerm[], sentence?: string): AskedTerm[] {
  if (said.length === 0) return [];
  const words = wordsOf(question);
  const first = Math.min(...said.map((t) => t.at));
  const last = Math.max(...said.map((t) => t.at));
  let start = first;
  const titled = new RegExp(`(?<![\\p{L}])${words[first]![0]!.toUpperCase()}${words[first]!.slice(1)}(?![\\p{L}])`, "u").test(question);
  const bounded = ruleOn(RULES.chainClauseBounds);
  const outer = (t: AskedTerm) => ruleOn(RULES.chainOuterOf) && sentence !== undefined && t.name === undefined && !saysRelation(sentence, t);
  const relationAt = new Set(terms.filter((t) => KINSHIP.has(t.word.replace(/s$/, "")) || outer(t)).map((t) => t.at));
  for (let i = first - 1; i >= 0; i--) {
    if (ARTICLES.has(words[i]!) && (i < first - 1 || !titled)) {
      start = i;
      break;
    }
    // "the FATHER of Nim's actress": a kinship before "of" is the next hop's, not said by this one; so is any
    // noun the question asks before "of" that the hop's sentence does not say ("the CEO of FleetBoston's
    // purchaser"), where "the AUTHOR of A Treatise", said "by George Berkeley", is this hop's (rule chain.outer-of).
    if (bounded && words[i] === "of" && relationAt.has(i - 1)) break;
    // The question's own opening ("WHO married the …", "… IS the spouse of") asks; a relative pronoun inside opens the clause ("the person WHO issued").
    if ((i === 0 && /^(?:who|what|which|where|when|whom|whose|how|in|on|at|during)$/.test(words[i]!)) || /^(?:is|was|are|were|did|does|do)$/.test(words[i]!)) {
      // Reaching the question's opening with no article met, the words before the hop's are the question's own ask ("What event CAUSED …").
      if (bounded && i === 0) start = first;
      break;
    }
    start = i;
  }
  // The wh-word's noun is what the whole question asks: no hop's clause says it.
  return terms.filter((t) => t.at >= start && t.at <= last && !(bounded && t.head));
  return terms.filter((t) => t.at >= start && t.at <= last);
}
