// What a question asks, read from its words: how to do something ("how do I roll a key?": the action), a list
// ("what are the consequences …", "which carriers are supported?"), what X is, an overview; and which of its
// words ask rather than say (modal verbs, "get", "kind of", a time of day's minutes).
import { wordsOf } from "../../retrieval";
import { stem } from "./sentences";
import { GENERIC_ACTION_LIST, MODAL_LIST, UNWEIGHED_LIST } from "./words/common";

/** A question asking how to do something, or what to do ("What do I do on first login?"). */
export const PROCEDURE = /^\s*(?:how (?:do|can|should|would|could|does) (?:i|we|you|one|someone|a user)|how to|what (?:do|should|must|shall) (?:i|we|you) do)\b|\bsteps? (?:to|for|of|in)\b/i;
/** A question answered yes or no ("Can I ride in the rain?", "Is there a trial?"). */
export const POLAR = /^\s*(?:is|are|was|were|do|does|did|can|could|will|would|should|shall|may|might|must|has|have|had)\b/i;
/**
 * A question said as one: opened by a question word or an auxiliary, or ended by "?". Not a query of keywords
 * ("pricing", "refund policy"), which names a page's subject more than it asks about it.
 */
export const ASKED = /^\s*(?:who|whom|whose|what|which|when|where|why|how|is|are|was|were|do|does|did|can|could|will|would|should|shall|may|might|must|has|have|had)\b|\?\s*$/i;
/** The verb a "how do I …" question asks how to do. */
const ACTION = /^\s*how (?:do|can|should|would|could|does) (?:i|we|you|one|someone|a user) (\p{L}+)/iu;
/**
 * Verbs that ask for a remedy or a way, not for an action a page names: "How do I FIX slow uploads?" is
 * answered by what the "Slow uploads" section says to do, which never says "fix" ("Fixed a crash …" does).
 */
const GENERIC_ACTIONS = new Set(GENERIC_ACTION_LIST);
/** The verb a "how do I …" question asks how to do, unless it only asks for a remedy (GENERIC_ACTIONS). */
export function actionAsked(question: string): string | null {
  const verb = ACTION.exec(question)?.[1]?.toLowerCase();
  return verb && !GENERIC_ACTIONS.has(verb) ? verb : null;
}
/** "What is X?", "who are X?" of a short X (a name or a term): X, lower-cased, without its article. */
export const DEFINING = /^\s*(?:what|who) (?:is|are|was|were) (?:an? |the )?((?:[\p{L}\p{N}][\p{L}\p{N}'’.-]* ?){1,4})\s*\?*\s*$/iu;
export const definedThing = (question: string) => DEFINING.exec(question)?.[1]?.trim().toLowerCase() ?? null;
/**
 * "Who is Ines Varga?", "who was Thomas Wray?": who a person named is, a description, not a name (as "Who is
 * the narrator?" asks for one). Only as written with a capital: a lower-case question cannot tell them apart.
 */
export const describesPerson = (question: string) => /^\s*who\b/i.test(question) && /^\p{Lu}/u.test(DEFINING.exec(question)?.[1] ?? "");
/** A time of day: "23:00", "9.30". */
export const CLOCK_TIME = /\b(\d{1,2})[:.](\d{2})\b/g;
/** "What are the (main) consequences of …", "which were the open questions", "list the risks": the plural asked for. */
export const LISTED = /^\s*(?:(?:what|which) (?:are|were)|list|name) (?:the |all (?:the )?|some (?:of the )?)?((?:[\p{L}-]+ ){0,2}?[\p{L}-]+s)\b(?: (?:of|for|in|on|to|at|with|from|by|about|that|we|you|i)\b|\s*\??\s*$)/iu;
/** "Which carriers are supported?", "what plans are there?", "which regions do you ship to?": the plural asked for. */
export const LISTED_BY_VERB = /^\s*(?:what|which) ((?:[\p{L}-]+ ){0,2}?[\p{L}-]+s) (?:are|were|do|does|did|can|could|will|is|has|have)\b/iu;

/**
 * "Which dishes are gluten-free?", "which models don't have a display?", "which plans have no seat limit?":
 * the stem of the thing the listed ones are without, or null.
 */
export function withoutAsked(question: string): string | null {
  const m = WITHOUT.exec(question);
  const word = m?.[1] ?? m?.[2] ?? m?.[3];
  return word ? stem(word.toLowerCase()) : null;
}
const WITHOUT =
  /^\s*(?:which|what)\s+(?:[\p{L}-]+\s+){0,2}?[\p{L}-]+s\s+(?:(?:are|is)\s+([\p{L}]+)-free|(?:do not|don't|does not|doesn't|did not|didn't)\s+(?:contain|have|include|use|need|require)\s+(?:an?\s+|any\s+)?([\p{L}]+)|(?:have|has|had|with|come with)\s+no\s+([\p{L}]+))\b/iu;

/** "How many plans are there?", "how many risks do we have": the plural counted. */
export const COUNTED = /^\s*how many ((?:[\p{L}-]+ ){0,2}?[\p{L}-]+s) (?:are|were|do|does|did|can|could|will|is|has|have|exist)\b/iu;

/** "Which dishes are gluten-free?": the plural listed (read only when WITHOUT matches). */
const LISTED_WITHOUT = /^\s*(?:which|what)\s+((?:[\p{L}-]+\s+){0,2}?[\p{L}-]+s)\s+(?:are|is|do|does|did|don't|doesn't|didn't|have|has|had|with|come)(?![\p{L}'])/iu;

export function listedThings(question: string): string | null {
  const words = (LISTED.exec(question) ?? LISTED_BY_VERB.exec(question) ?? COUNTED.exec(question) ?? (WITHOUT.test(question) ? LISTED_WITHOUT.exec(question) : null))?.[1]?.split(" ");
  const last = words?.at(-1);
  return last && !/(?:ss|us|is)$/i.test(last) ? stem(last.toLowerCase()) : null;
}

/**
 * The one who does what a question's verb says, and back: "Who decided …?" is answered by "Deciders: Priya
 * Raman", "Who owns billing?" by "Owner: Lena", "Who is the director of …?" by "directed by …". As stems of
 * a sentence's words. A verb's doer only for a verb form ("decided", "owns"; "form" is not "former"); a doer's
 * verb only when a person is asked for ("mother" is no "moth" anyone asks about).
 */
export function agentForms(term: string, s: string, person: boolean): string[] {
  if (s.length < 3 || /\d/.test(s)) return [];
  const forms: string[] = [];
  if (person || /(?:ed|[^s]s)$/.test(term)) forms.push(`${s}er`, `${s}or`);
  const verb = /^(.{3,})(?:er|or)$/.exec(s)?.[1];
  if (person && verb) forms.push(verb);
  return forms;
}

/** Modal verbs (stems) a question asks with and its answer does not repeat. */
export const MODAL = new Set(MODAL_LIST.map(stem));
/**
 * Words of a question that weigh nothing in the evidence: modal verbs ("may" is also a month), and "get" and
 * "make", which ask with the word they come with ("when do we GET paid?": a page's "staff get 28 days of
 * leave" is no answer; "what decisions were MADE?" is answered by the items under "Decisions").
 */
export const UNWEIGHED = new Set(UNWEIGHED_LIST.map(stem));
/**
 * "What happens if I don't pass --delete?": the words ask for a consequence, which the page states without
 * saying "happens" ("`--delete`: remove files … Off by default."). Their stem, or null.
 */
export const consequenceAsked = (question: string) =>
  /\bwhat (?:happens|happened|will happen|would happen|could happen|can happen)\b(?= (?:if|when|after|to|once|unless|before)\b)/i.test(question) ? stem("happen") : null;
/**
 * "What is PLANNED for Q1 2027?", "what is SCHEDULED on Friday?": the words ask for what a plan or schedule
 * lists under that time, which it lists without saying "planned" (a roadmap's "## Q1 2027" and its items).
 * Their stems, or null.
 */
export function plannedAsked(question: string): Set<string> | null {
  const m = /\bwhat(?:'s|\s+is|\s+are|\s+was|\s+were)?\s+(planned|scheduled|happening|due|expected|coming up)\s+(?:for|in|on|at|during|this|next)\b/i.exec(question);
  return m ? new Set(wordsOf(m[1]!).map(stem)) : null;
}
/** "What KIND of rock": the word asks for a kind, which the answer names ("gneiss and granite"), not says. */
export const kindWords = (question: string) => [...question.toLowerCase().matchAll(/\b(kind|type|sort)s? of\b/g)].map((m) => stem(m[1]!));
/** The words (stems) of a request for an overview: "tell me about", "describe", "what happened at". */
export function overviewWords(question: string): Set<string> | null {
  if (OVERVIEW_ABOUT.test(question)) return new Set([stem("about")]);
  const found = OVERVIEW.map((pattern) => pattern.exec(question)?.[0]).filter((m) => m !== undefined);
  if (found.length) return new Set(found.flatMap((m) => wordsOf(m).map(stem)));
  return DEFINITION.test(question) ? new Set() : null; // its asking words are stopwords
}
export const OVERVIEW = [
  /^\s*(?:(?:can you |could you |please )?(?:tell me(?: more)? about|give me an? (?:overview|summary) of|summari[sz]e|describe|explain)|what do (?:you|we) know about|(?:an? )?(?:overview|summary) of|what happened (?:at|in|on|during)|what(?:'s| is| has)? (?:new|changed) (?:in|with|since)|what changes (?:in|with|since))\b/i,
  /\b(?:story|history|background) (?:behind|of)\b/i, // "what is the story behind X", "the history of X"
];
/** "What is X about?" */
export const OVERVIEW_ABOUT = /^\s*what(?:'s| is| was| are) .+ about\s*\??\s*$/i;
/** "What is X?": when a page's title names all of X, its opening sentence says what X is. */
export const DEFINITION = /^\s*what(?:'s| is| are| was| were)\b/i;
/** Adjacent pairs of the question's terms (stems), in the question's order, stopwords between them skipped. */
export function questionPairs(question: string, termStems: Set<string>): [string, string][] {
  const seq = wordsOf(question)
    .map(stem)
    .filter((w) => termStems.has(w));
  const out: [string, string][] = [];
  for (let i = 0; i + 1 < seq.length; i++) if (seq[i] !== seq[i + 1]) out.push([seq[i]!, seq[i + 1]!]);
  return out;
}
