// The words a chained question asks with, each weighed by how rare it is in English, and whether a sentence
// says one: its own stem, or for a relation word one of the words pages say it with ("spouse" by "married").
// A hop of the chain (chain.ts) is the sentence that says most of the weight the hops before left unsaid.
import { STOPWORDS, wordsOf } from "../../../retrieval";
import { backgroundWeight } from "../term-weights";
import { stem, stemSet } from "../sentences";
import { RELATION_CUES } from "../words/relations";
import { plain } from "./pages";

export interface AskedTerm {
  word: string;
  stem: string;
  weight: number;
  /** Phrases a page says this relation word with, lower-case ("married" for "spouse"). */
  cues: readonly string[];
  /** Where the question writes it (word index). */
  at: number;
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

export function askedTerms(question: string): AskedTerm[] {
  const seen = new Set<string>();
  const out: AskedTerm[] = [];
  const all = wordsOf(question);
  for (const [at, word] of all.entries()) {
    if (STOPWORDS.has(word) || ASKING.has(word) || word.length < 2) continue;
    const s = stem(word);
    if (seen.has(s)) continue;
    seen.add(s);
    const cues = RELATION_CUES[VERB_RELATIONS[word] ?? word] ?? RELATION_CUES[word.replace(/s$/, "")] ?? [];
    out.push({ word, stem: s, weight: weightOf(word), cues: cues.filter((c) => c !== "by"), at });
  }
  return out;
}

/** What a text says, read once: its stems and its plain lower-case form. */
export interface Said {
  stems: Set<string>;
  lower: string;
}

export const saidOf = (text: string): Said => ({ stems: stemSet(text), lower: ` ${plain(text)} ` });

/** Whether a sentence (with its page's title) says the term: the stem, or a cue of the relation. */
export const says = (said: Said, term: AskedTerm) => said.stems.has(term.stem) || term.cues.some((c) => said.lower.includes(` ${plain(c)} `));

/** Whether a text mentions a name: the whole name, or a person's surname alone ("Bettany"). */
export function mentions(text: string, name: string): boolean {
  const lower = ` ${plain(text)} `;
  const n = plain(name);
  if (!n) return false;
  if (lower.includes(` ${n} `)) return true;
  const words = n.split(" ");
  const last = words.at(-1)!;
  // A surname alone stands for a person's name, not "America" for "Bank of America".
  const personal = words.length <= 3 && !/\b(?:of|the|and|de|for)\b/.test(n);
  return personal && words.length > 1 && last.length > 3 && !/^\d+$/.test(last) && lower.includes(` ${last} `);
}

const ARTICLES = new Set(["the", "a", "an"]);

/**
 * The terms a hop says by saying the others: a hop that says "Vision … Age of Ultron" of "the ACTOR that
 * PLAYS Vision in Avengers: Age of Ultron" has found that actor, so the clause's head and verb are said too.
 * That is every term from the noun phrase opening before the first term said (its article, not the one of a
 * title right before it: "the Tamworth manifesto") to the last term said.
 */
export function clauseOf(question: string, terms: readonly AskedTerm[], said: readonly AskedTerm[]): AskedTerm[] {
  if (said.length === 0) return [];
  const words = wordsOf(question);
  const first = Math.min(...said.map((t) => t.at));
  const last = Math.max(...said.map((t) => t.at));
  let start = first;
  const titled = new RegExp(`(?<![\\p{L}])${words[first]![0]!.toUpperCase()}${words[first]!.slice(1)}(?![\\p{L}])`, "u").test(question);
  for (let i = first - 1; i >= 0; i--) {
    if (ARTICLES.has(words[i]!) && (i < first - 1 || !titled)) {
      start = i;
      break;
    }
    // The question's own opening ("WHO married the …", "… IS the spouse of") asks; a relative pronoun inside opens the clause ("the person WHO issued").
    if ((i === 0 && /^(?:who|what|which|where|when|whom|whose|how|in|on|at)$/.test(words[i]!)) || /^(?:is|was|are|were|did|does|do)$/.test(words[i]!)) break;
    start = i;
  }
  return terms.filter((t) => t.at >= start && t.at <= last);
}
