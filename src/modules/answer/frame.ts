// The question frame: what a question asks, read once from its words before any page is read. Its shape
// (bridge, comparison, yes/no, two-part or plain) picks the strategy that answers it (shapes/); the names it
// writes, the things it compares, the relations it chains and the attribute it asks for are what that
// strategy looks for in the pages. Only the question's words are read here: which name is a page's title is
// the strategy's to find out.
import { expectedAnswerType, type AnswerType } from "./answer-type";
import { ruleOn, RULES } from "./rules";
import { COMPARISONS, type ComparedValue } from "./words/comparisons";
import { countryNamed } from "./words/nationalities";
import { ATTRIBUTES, COMPOSITE_RELATIONS, NOT_RELATIONS, PERSON_RELATIONS } from "./words/relations";

export type Shape = "bridge" | "comparison" | "yes-no" | "two-part" | "plain";

export interface Compared {
  value: ComparedValue;
  pick: "min" | "max";
  /** How the chosen one is said against the other: ["came before", "came first"]. */
  phrase: [string, string];
  /** The words of the compared quantity ("population" of "Which city has the larger population, …"). */
  words: string[];
}

/** A relation the question names, where it names it (its character offset). */
export interface RelationMention {
  word: string;
  at: number;
  /** The hop's place within a kinship word of two ("paternal grandfather": the father's 0, his father's 1). */
  seq: number;
  /** The verb a clause says the relation with ("the actress who PLAYED Thelma"), a cue for it. */
  verb?: string;
  /** A noun the question asks a relation with that is no relation word of the list ("the SEAT of …"): read less surely. */
  generic?: true;
}

export interface QuestionFrame {
  question: string;
  shape: Shape;
  answerType: AnswerType | null;
  /**
   * What is compared or asked of each option, as written: each a list of ways to split the options (names
   * hold commas and "and": "Land And Freedom"), the strategy keeps the one whose options are pages.
   */
  optionSplits: string[][];
  compared: Compared | null;
  /**
   * "Are A and B from the same country?": what must be the same; "relation" is the same `via` ("Do both films
   * have the same director?").
   */
  same: "country" | "relation" | null;
  /** "Are A and B both American?": the country each must be of. */
  countryAsked: string | null;
  /** A comparison through a relation of each option ("the film whose DIRECTOR was born first"). */
  via: string | null;
  /** Relations the question chains, in the order it writes them (innermost is the one nearest its subject). */
  relations: RelationMention[];
  /** The attribute asked of the chain's last thing ("place of birth"), by its ATTRIBUTES name, or null. */
  attribute: string | null;
  /** A two-part question's parts. */
  parts: [string, string] | null;
  /** A polar comparison ("Is A older than B?"): the answer is yes when the first option wins. */
  polarComparison: boolean;
}

const POLAR_OPENING = /^\s*(?:is|are|was|were|do|does|did|can|could|has|have|had)\b/i;
const QUESTION_WORD = /^(?:what|who|whom|whose|where|when|which|how|why)\b/i;

export function frameOf(question: string): QuestionFrame {
  const q = question.trim().replace(/\s+/g, " ");
  const lower = q.toLowerCase();
  const base = {
    question: q,
    answerType: expectedAnswerType(q),
    optionSplits: [] as string[][],
    compared: null as Compared | null,
    same: null as QuestionFrame["same"],
    countryAsked: null as string | null,
    via: null as string | null,
    relations: [] as RelationMention[],
    attribute: null as string | null,
    parts: null as [string, string] | null,
    polarComparison: false,
  };
  const polar = POLAR_OPENING.test(q);
  const choice = polar ? (ruleOn(RULES.polarChoice) ? polarChoice(q) : null) : optionsAsked(q);
  if (choice) {
    const compared = comparedIn(choice.head.toLowerCase());
    return { ...base, shape: "comparison", optionSplits: choice.splits, compared, via: viaRelation(choice.head) };
  }
  const yesNo = polar ? polarAsked(q) : null;
  if (yesNo) return { ...base, shape: "yes-no", ...yesNo };
  const parts = twoParts(q);
  if (parts) return { ...base, shape: "two-part", parts };
  const relations = relationsIn(lower);
  const attribute = ATTRIBUTES.find((a) => a.asked.test(lower))?.name ?? null;
  // A chain has a hop when the last thing's attribute is asked of a related one, or one relation of another.
  const hops = attribute ? relations.length : relations.length - 1;
  return { ...base, shape: hops >= 1 ? "bridge" : "plain", relations, attribute };
}

/** "Which film came out first, A or B?": the words before the options and the ways to split them. */
function optionsAsked(q: string): { head: string; splits: string[][] } | null {
  if (!/^\s*(?:which|who|what)\b/i.test(q)) return null;
  const body = q.replace(/\s*\?+\s*$/, "");
  for (let comma = body.indexOf(","); comma > 0; comma = body.indexOf(",", comma + 1)) {
    const rest = body.slice(comma + 1).trim();
    const or = rest.lastIndexOf(" or ");
    if (or <= 0) continue;
    const [left, right] = [rest.slice(0, or).replace(/,\s*$/, "").trim(), rest.slice(or + 4).trim()];
    if (!left || !right) continue;
    const splits = [[left, right]];
    // "A, B or C": three, when each piece is one (the strategy keeps the split whose options are pages).
    const pieces = left.split(/,\s+/);
    if (pieces.length > 1) splits.push([...pieces, right]);
    return { head: body.slice(0, comma), splits };
  }
  return ruleOn(RULES.outOfBetween) ? optionsAfter(body) : null;
}

/** "Who was born first out of A and B?", "Which film came out first between A and B?": the options after "out of", "between", "of". */
function optionsAfter(body: string): { head: string; splits: string[][] } | null {
  const m = /^(.+?\b(?:first|last|earlier|later|sooner|older|younger|longer|more recently|\p{L}+est)\b)\s*,?\s+(?:out of|between|among|of)\s+(?:the\s+(?:two|three)\s+)?(.+)$/iu.exec(body);
  if (!m) return null;
  const [head, rest] = [m[1]!, m[2]!];
  const splits = [...rest.matchAll(/\s+(?:and|or)\s+/gi)].map((at) => [rest.slice(0, at.index).trim(), rest.slice(at.index! + at[0].length).trim()]);
  const last = splits.at(-1);
  if (last && last[0]!.includes(", ")) splits.push([...last[0]!.split(/,\s+/), last[1]!]);
  return splits.length > 0 ? { head, splits } : null;
}

function comparedIn(head: string): Compared | null {
  const found = COMPARISONS.find((c) => c.said.test(head));
  if (!found) return null;
  const words = found.value === "quantity" ? head.split(/[^\p{L}]+/u).filter((w) => w.length > 3 && !found.said.test(w) && !/^(?:which|what|whose|have|does|with|more|less)$/.test(w)) : [];
  return { value: found.value, pick: found.pick, phrase: found.phrase, words };
}

/** "Which film has the DIRECTOR born earlier", "Are the DIRECTORS of films A and B …": the relation each option is followed by. */
function viaRelation(text: string): string | null {
  const words = text.toLowerCase().split(/[^\p{L}-]+/u);
  for (const w of words) {
    const single = w.replace(/s$/, "");
    if ((PERSON_RELATIONS as readonly string[]).includes(single) && !["star", "actor", "actress", "artist"].includes(single)) return single;
  }
  return null;
}

/** "Was A or B born first?", "Did A or B come out earlier?": a choice asked in a polar question's words. */
function polarChoice(q: string): { head: string; splits: string[][] } | null {
  const m = new RegExp(`^\\s*\\S+\\s+(.+?)\\s+or\\s+(.+?)\\s+((?:${EVENT_VERBS})\\b.*|\\p{L}+er\\b.*|(?:first|last|earlier|later|sooner)\\b.*)$`, "iu").exec(q.replace(/\s*\?+\s*$/, ""));
  if (!m || !comparedIn(m[3]!.toLowerCase().replace(/\bdie\b/, "died"))) return null;
  const bare = (option: string) => option.replace(/^(?:the\s+)?(?:films?|songs?|albums?|bands?|books?)\s+/i, "");
  return { head: m[3]!.replace(/\bdie\b/i, "died"), splits: [[bare(m[1]!), bare(m[2]!)]] };
}

/** A polar question's yes/no reading: the same country, the same relation, a country named, an order of two. */
function polarAsked(q: string): Partial<QuestionFrame> | null {
  if (/\bsame (?:country|nationality)\b|\bboth from\b.*\bcountry\b/i.test(q)) {
    const splits = sameOptions(q);
    if (splits.length > 0) return { same: "country", optionSplits: splits, via: viaRelation(outsideOptions(q, splits[0]!)) };
  }
  const sameRelation = ruleOn(RULES.sameRelation) ? sameRelationAsked(q) : null;
  if (sameRelation) {
    const splits = sameOptions(q);
    if (splits.length > 0) return { same: "relation", optionSplits: splits, via: sameRelation };
  }
  const named = ruleOn(RULES.countryAsked) ? countryAskedOf(q) : null;
  // Words after the options say what they are ("both American film directors"): a relation is read before them.
  if (named) return { same: "country", countryAsked: named.country, optionSplits: named.splits, via: viaRelation(q.slice(0, q.indexOf(named.splits[0]![0]!))) };
  return orderAsked(q);
}

/** The question without an option's words, where a relation word it names is the question's, not a title's ("Velvet (Singer)"). */
const outsideOptions = (q: string, options: string[]) => options.reduce((text, option) => text.split(option).join(" "), q);

/** Verbs a page says a relation with, for "Were A and B DIRECTED by the same person?". */
const RELATION_VERBS: Record<string, string> = { directed: "director", composed: "composer", written: "author", produced: "producer", founded: "founder", performed: "performer", sung: "performer", created: "creator", published: "publisher", designed: "designer", edited: "editor", owned: "owner" };

/** "Do both films have the same director?", "Were A and B directed by the same person?": the relation, or null. */
function sameRelationAsked(q: string): string | null {
  const noun = /\bsame (\p{L}+)\b/iu.exec(q)?.[1]?.toLowerCase().replace(/s$/, "");
  if (noun && (PERSON_RELATIONS as readonly string[]).includes(noun)) return noun;
  const verb = /\b(\p{L}+) by the same\b/iu.exec(q)?.[1]?.toLowerCase();
  return verb ? (RELATION_VERBS[verb] ?? null) : null;
}

/** "Are A and B both American?", "Are both A and B from Canada?": the country asked and the options before it. */
function countryAskedOf(q: string): { country: string; splits: string[][] } | null {
  if (!/\bboth\b/i.test(q)) return null;
  const words = q.replace(/\s*\?+\s*$/, "").split(" ").slice(1);
  // The country is the question's last capitalized words, a few lower-case ones after it at most ("American actors").
  let last = words.length - 1;
  while (last >= 0 && !/^\p{Lu}/u.test(words[last]!)) last--;
  if (last < 0 || words.length - 1 - last > 3) return null;
  for (let n = 1; n <= 3 && n <= last; n++) {
    const said = words.slice(last - n + 1, last + 1).join(" ").toLowerCase().replace(/-\p{L}+$/u, "");
    const country = countryNamed(said);
    if (!country) continue;
    const names = words.slice(0, last - n + 1).join(" ").replace(/^both\s+/i, "").replace(/(?:\s+(?:both|from|in|of|the))+$/i, "");
    const splits = [...names.matchAll(/\s+and\s+/gi)].map((at) => [names.slice(0, at.index).trim(), names.slice(at.index! + at[0].length).trim()]);
    return splits.length > 0 ? { country, splits } : null;
  }
  return null;
}

const EVENT_VERBS = "born|released|founded|established|formed|published|premiered|aired|opened|built|made|created|died|die|come out|came out";

/** "Is A older than B?", "Was A born before B?", "Was the director of A born earlier than the director of B?". */
function orderAsked(q: string): Partial<QuestionFrame> | null {
  const m = new RegExp(`^\\s*\\S+\\s+(.+?)\\s+(?:(${EVENT_VERBS})\\s+)?(?:(\\p{L}+er|more \\p{L}+|less \\p{L}+)\\s+than|(before|after))\\s+(.+?)\\s*\\?*\\s*$`, "iu").exec(q);
  if (!m || (m[4] && !ruleOn(RULES.beforeAfter))) return null;
  const verb = m[2]?.toLowerCase().replace(/^die$/, "died") ?? "";
  const compared = comparedIn(`${verb} ${(m[3] ?? m[4])!.toLowerCase()}`.trim());
  if (!compared) return null;
  let [first, second] = [m[1]!, m[5]!];
  // "the director of A … the director of B": each option's relation, followed before comparing.
  const related = /^the (\p{L}+) of (?:the )?(?:(?:film|song|album|book|band)\s+)?/iu;
  const [r1, r2] = [related.exec(first), related.exec(second)];
  let via: string | null = null;
  if (r1 && r2 && r1[1]!.toLowerCase() === r2[1]!.toLowerCase() && ruleOn(RULES.beforeAfter)) {
    via = viaRelation(r1[1]!);
    if (via) [first, second] = [first.slice(r1[0].length), second.slice(r2[0].length)];
  }
  return { compared, polarComparison: true, optionSplits: [[first, second]], via };
}

/** "Are A and B both from the same country?": the options, split at each " and ". */
function sameOptions(q: string): string[][] {
  const words = ruleOn(RULES.sameOptionWords);
  // "Does A have the same nationality as B?", "Is A located in the same country as B?"
  const asWords = words ? "have|has|had|share|shares|of|from|(?:located|based|born)\\s+in|in|the" : "have|has|had|share|shares|of|from";
  const as = new RegExp(`^\\s*\\S+\\s+(.+?)\\s+(?:${asWords})\\s+the same (?:nationality|country)(?: of origin)?\\s+as\\s+(.+?)\\s*\\?*\\s*$`, "iu").exec(q);
  if (as) return [[as[1]!, as[2]!].map(words ? withoutRelation : (o) => o)];
  const kinds = words ? "films?|movies?|songs?|albums?|bands?|groups?|books?|novels?|people|persons?|rivers?|places?|towns?|villages?|cities|city|stations?|companies|company|magazines?" : "films?|songs?|albums?|bands?|people|persons?|rivers?|places?";
  const ends = words ? "|the same (?:nationality|country)\\b" : "";
  const m = new RegExp(`^\\s*\\S+\\s+(?:both\\s+)?(?:(?:the\\s+)?\\p{L}+\\s+of\\s+(?:both\\s+)?)?(?:${words ? "(?:the\\s+)?" : ""}(?:${kinds})\\s+)?(.+?)\\s+(?:both\\b|(?:of|from|in) the same\\b|have the\\b|located\\b|share\\b|\\p{L}+ by the same\\b${ends})`, "iu").exec(q.replace(/ (?:born|based) (?=in the same\b)/g, " "));
  if (!m) return [];
  // "the movies A and B, originate from …": the words after the last option's comma are the question's.
  const names = words ? m[1]!.replace(/,\s*(?:\p{Ll}+)?$/u, "") : m[1]!;
  const splits: string[][] = [];
  for (const at of [...names.matchAll(/\s+and\s+/gi)]) splits.push([names.slice(0, at.index).trim(), names.slice(at.index! + at[0].length).trim()].map(withoutRelation));
  // "Are A, B and C from the same country?": three, when each is a page (the strategy keeps the split whose options are pages).
  const last = splits.at(-1);
  if (last && ruleOn(RULES.manyOptions) && last[0]!.includes(", ")) splits.push([...last[0]!.split(/,\s+/), last[1]!]);
  return splits;
}

/** "director of film A" is A: the second option's relation is the first's, not its name. */
function withoutRelation(option: string): string {
  const r = /^(?:the\s+)?(\p{L}+)\s+of\s+(?:the\s+)?(?:(?:film|song|album|band|book)\s+)?/iu.exec(option);
  return r && (PERSON_RELATIONS as readonly string[]).includes(r[1]!.toLowerCase()) ? option.slice(r[0].length) : option;
}

/** "Who owns billing and what language is it written in?": two questions in one. */
function twoParts(q: string): [string, string] | null {
  const asked = /^\s*(?:what|who|whom|whose|where|when|which|how)\b/i;
  if (!asked.test(q)) return null;
  const m = /^(.+?)(?:\?\s+|,?\s+and\s+)((?:what|who|whom|whose|where|when|which|how|why)\b.+)$/i.exec(q);
  if (!m || !QUESTION_WORD.test(m[2]!)) return null;
  const [first, second] = [m[1]!.trim(), m[2]!.trim()];
  // Each part asks something of its own: at least two words of its own besides the question word.
  if (first.split(" ").length < 3 || second.split(" ").length < 3) return null;
  return [first.endsWith("?") ? first : `${first}?`, second.endsWith("?") ? second : `${second}?`];
}

/** The relations a question names, kinship words of two hops written as two ("paternal grandfather"). */
function relationsIn(lower: string): RelationMention[] {
  const found: RelationMention[] = [];
  let text = lower;
  for (const [word, hops] of Object.entries(COMPOSITE_RELATIONS)) {
    for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) {
      // The first hop is the nearer one to the subject: "X's paternal grandfather" is X's father's father.
      hops.forEach((hop, i) => found.push({ word: hop, at, seq: i }));
      text = text.slice(0, at) + " ".repeat(word.length) + text.slice(at + word.length);
    }
  }
  const person = new RegExp(`\\b(${PERSON_RELATIONS.join("|")})s?\\b(?:\\s+(?:who|that|which)\\s+(?:has\\s+|had\\s+|was\\s+)?(\\p{L}+))?`, "gu");
  for (const m of text.matchAll(person)) found.push({ word: m[1]!, at: m.index!, seq: 0, ...(m[2] ? { verb: m[2] } : {}) });
  // "Who MARRIED the publisher of X?": a verb asking for a relation.
  for (const m of text.matchAll(/^\s*who\s+(married|wed)\b/g)) found.push({ word: "spouse", at: m.index!, seq: 0 });
  // "the SEAT of the COUNTY where …": a noun a relation is asked with, not a relation word of the list.
  for (const m of text.matchAll(/\bthe (\p{L}{3,}) (?:of|where|in which|that|which|whose)\b/gu)) {
    const word = m[1]!;
    if (NOT_RELATIONS.has(word) || found.some((f) => f.word === word || f.word === word.replace(/s$/, ""))) continue;
    found.push({ word, at: m.index! + 4, seq: 0, generic: true });
  }
  return found.sort((a, b) => a.at - b.at);
}
