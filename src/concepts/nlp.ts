// English phrase finding with wink-nlp and its bundled lite model (POS tagger + sentence splitter, no
// download). Measured against compromise on the same texts: 0.5 ms vs 28 ms per 400-character document,
// with the same names found, so wink-nlp is the one that keeps ingestion at hundreds of sources a second.
import type winkNLPType from "wink-nlp";
import { CURRENCY_CODE as CURRENCY_CODES, CURRENCY_SIGN } from "../lib/currency";
import { englishFrequency } from "../lib/english-frequency";
import { endsSentence } from "../lib/sentence-ends";
import { isGivenName, isPersonName } from "./given-names";
import { GENERIC_HEADS } from "./keys";
import { tagRuns } from "./tag-runs";

export interface Phrase {
  /** The words as written ("University of Paris"). */
  surface: string;
  /** `proper`: a name (people, places, organizations); `phrase`: a lower-case noun phrase. */
  kind: "proper" | "phrase";
  /** Index into `sentences`. */
  sentence: number;
}

/**
 * Between a table row's cells in the prose read for names (extract.ts): a semicolon and two spaces, which
 * prose (its spaces collapsed) never has, so a cell's first word is read as opening a sentence.
 */
export const CELL_SEPARATOR = ";  ";

let instance: ReturnType<typeof winkNLPType> | null = null;
/** Instances made so far, and the characters `instance` has read (see RECYCLE_AFTER_CHARS). */
let generation = 0;
let charsRead = 0;
/**
 * The tagger keeps every word it has not met before in its own table for good (~150 bytes each), so a
 * long import of text with many distinct names and numbers grew its thread's heap without bound (2M new
 * words: +300 MB). A fresh instance (35-75 ms) after this many characters (~4k abstracts) bounds it
 * at a few tens of MB, for well under 1% of the tagging time.
 */
export const RECYCLE_AFTER_CHARS = 5_000_000;

/** Which tagger instance reads next: for tests of the bound. */
export const taggerGeneration = () => generation;

/** Reads a text, on a fresh instance once the bound is passed (`its` is shared by every instance). */
function read(text: string) {
  if (charsRead > RECYCLE_AFTER_CHARS) [instance, charsRead] = [null, 0];
  charsRead += text.length;
  return nlp().readDoc(text);
}

/** Renews the tagger now, as the bound above does: for tests of renewal. */
export function renewTagger(): void {
  instance = null;
  charsRead = 0;
}

let stableModel: any = null;
/**
 * The bundled model, its custom-entity data read once: the model's loader re-encodes that data each time it
 * is read (its module keeps the JSON string it returned and stringifies it again), so each new instance made
 * from the model as published read a longer string, and a long import's renewals ran out of memory (26 of
 * them), though nothing here uses custom entities (tag-runs.ts).
 */
function model() {
  if (stableModel) return stableModel;
  const published = require("wink-eng-lite-web-model");
  const metaCER = published.metaCER();
  return (stableModel = Object.assign(Object.create(null), published, { metaCER: () => metaCER }));
}

function nlp() {
  if (instance) return instance;
  // Required on first use, not imported: the model is ~3 MB of data that would otherwise be evaluated at
  // every start of the binary (cold start), also by commands and servers that never ingest. A plain
  // `require` of a literal name, so the bundler still embeds both packages.
  const winkNLP = require("wink-nlp") as typeof winkNLPType;
  // Names and noun phrases are runs of the tags (tag-runs.ts), not the library's custom entities.
  instance = winkNLP(model(), ["sbd", "pos"]);
  generation++;
  return instance;
}

const lexiconCache = new Map<string, { pos: string; inflected: boolean }>();
/** Lemmas of a token list (its.lemma's declared type does not fit `out`'s, though the call is documented). */
const lemmas = (tokens: any): string[] => tokens.out(nlp().its.lemma);

/**
 * How the tagger reads the word written lower-case in a neutral frame ("surveyor" NOUN, "local" ADJ), and
 * whether its lemma differs (an inflected form: "visitors" → visitor).
 */
export function lowerCaseReading(word: string): { pos: string; inflected: boolean } {
  const lower = word.toLowerCase();
  let reading = lexiconCache.get(lower);
  if (reading === undefined) {
    const n = nlp();
    const tokens = read(`the ${lower} one`).tokens();
    reading = { pos: String(tokens.out(n.its.pos)[1]), inflected: String(lemmas(tokens)[1]) !== lower };
    if (lexiconCache.size > 10_000) lexiconCache.clear();
    lexiconCache.set(lower, reading);
  }
  return reading;
}

const lowerCasePos = (word: string) => lowerCaseReading(word).pos;

export const isCommonNoun = (word: string) => lowerCasePos(word) === "NOUN";

/**
 * A name span that opens its sentence, as it should be read: a capitalized common noun opening a sentence
 * before a name is a role, not part of it ("Surveyor Ada Quill" at a sentence start is Ada Quill); "" when
 * the span is no name at all.
 */
function withoutOpeningRole(surface: string): string {
  const words = surface.split(/\s+/);
  // One capitalized word opening a sentence is not a name when, written lower-case, it reads as another
  // part of speech ("Local builders", "Several years"), as a plural common noun ("Visitors still come") or
  // as a noun English mostly writes in lower case (SUBTLEX: "Development will ensue"); unknown words read
  // as nouns and stay ("Holm was").
  if (words.length === 1) {
    const { pos, inflected } = lowerCaseReading(words[0]!);
    if (pos === "PROPN") return surface;
    // A word English never writes ("Shopify", "Spendly"), or an acronym ("UPS"): a name, whatever part of speech
    // its ending suggests.
    if (!englishFrequency().counts.has(words[0]!.toLowerCase()) || isAcronym(words[0]!)) return surface;
    return pos === "NOUN" && !inflected && !englishFrequency().lowerCase.has(words[0]!.toLowerCase()) ? surface : "";
  }
  // A conjunction, preposition or adverb opening the sentence, which the tagger took into the name because
  // it is capitalized there ("While Kara left", "As Mars rose"): the name is what follows.
  // What follows no longer opens the sentence, so the single-word rule above is not for it ("As Mars").
  const opener = words[0]!.toLowerCase();
  if (OPENERS.has(opener) || OPENING_FUNCTION_WORD.has(lowerCaseReading(opener).pos)) return words.slice(1).join(" ");
  // An instruction's verb opening a sentence or a list item ("Use 1Password for secrets", "Ask Priya Nair for
  // access") is capitalized there, not part of the name; not before "of" ("Call of Duty") nor a lone generic
  // head ("Open University").
  if (INSTRUCTION_VERBS.has(opener) && !NAME_JOINERS.has(words[1]!) && !(words.length === 2 && GENERIC_HEADS.has(words[1]!.toLowerCase())))
    return words.slice(1).join(" ");
  // A participle opening it is the sentence's (or a table cell's) word, not the name's: "Misconfigured Okta
  // connection", "Expired TLS certificate". Not "United" ("United Nations").
  if (/ed$/.test(opener) && opener !== "united" && lowerCaseReading(opener).pos === "VERB") return words.slice(1).join(" ");
  if (words.length < 3) return surface;
  // A common noun joined to the rest is part of the name ("Call of Duty", "President of China"): without it
  // the name would open with its joiner ("of Duty").
  if (NAME_JOINERS.has(words[1]!)) return surface;
  // A role comes before a person's name ("Surveyor Ada Quill"): a common noun opening a title or brand
  // ("Dragon Ball Super", "Magna Carta Holy Grail") is its first word.
  return isCommonNoun(words[0]!) && isGivenName(words[1]!) ? words.slice(1).join(" ") : surface;
}

/** A currency sign as the tagger splits it from its amount ("£", "55"), or a currency's code after it. */
const CURRENCY = new RegExp(`^${CURRENCY_SIGN}$`);
const CURRENCY_CODE = new RegExp(`^(?:${CURRENCY_CODES})$`, "i");

/** A capitalized word of letters only ("Shopify"), not in capitals throughout. */
const UNKNOWN_NAME = /^\p{Lu}\p{Ll}+$/u;
/** A word in capitals: two to six letters or digits, a letter first ("UPS", "CN22"). */
const ACRONYM = /^[A-Z][A-Z0-9]{1,5}$/;
const ACRONYM_IN_TEXT = /\b[A-Z][A-Z0-9]{1,5}\b/;
/** Occurrences in SUBTLEX above which a word in capitals is read as the word ("ups" 130: a name; "free" 9,054). */
const COMMON_WORD_COUNT = 500;
const isAcronym = (word: string) => ACRONYM.test(word) && (englishFrequency().counts.get(word.toLowerCase()) ?? 0) < COMMON_WORD_COUNT;
/** A season, capitalized before a year as a month is ("Fall 2016"). */
const SEASON = /^(?:Spring|Summer|Autumn|Fall|Winter)$/;

/**
 * Verbs that open instructions in runbooks, handbooks and guides. A list, not the tagger: out of context it
 * reads "summer", "bill" or "mark" as verbs too ("Summer Glau", "Bill Gates").
 */
const INSTRUCTION_VERBS = new Set(
  ("use ask run open install download upload check click select add create set enable disable turn restart start stop " +
    "contact email send see visit update upgrade configure deploy book submit request report lock follow copy paste type " +
    "enter choose press tap navigate launch connect join invite ping message tell notify review approve sign log go read").split(" "),
);
/** Conjunctions that also read as other words out of context ("a while", "as" tagged as a name's part). */
const OPENERS = new Set(["while", "as", "when", "after", "before", "since", "once", "until", "though", "although", "because", "if", "unless", "whereas", "whilst"]);
/** Parts of speech of a sentence's first word that is never part of the name after it. */
const OPENING_FUNCTION_WORD = new Set(["SCONJ", "ADP", "ADV", "CCONJ", "DET", "PRON", "AUX", "PART"]);

/** Lower-case words that join the parts of one name ("University of Paris", "Charles de Gaulle"). */
const NAME_JOINERS = new Set(["of", "de", "du", "da", "del", "della", "von", "van", "der", "den", "la", "le"]);
/**
 * A possessive mark (its own token) inside a name: before a generic head only ("Mariners' Institute", "St
 * John's College"), since "Curie's Radium Institute" is a person's, not part of one name.
 */
const POSSESSIVE = new Set(["'", "’", "'s", "’s"]);
/** Parts of speech a sentence's capitalized first word has when it is not part of a name ("The", "In"). */
const NOT_NAME_START = new Set(["DET", "PRON", "ADP", "ADV", "CCONJ", "SCONJ", "AUX", "PART", "VERB", "NUM"]);
const CAPITALIZED = /^\p{Lu}/u;

interface Tokens {
  text: string[];
  pos: string[];
  spaces: string[];
  /** Every token with the spacing before it, joined (spanText slices it), and where each token starts in it. */
  joined: string;
  starts: number[];
  /** Token index → its sentence's first and last token. */
  sentenceStart: number[];
  sentenceEnd: number[];
}

/**
 * The tagger splits a hyphenated word into its parts ("on", "-", "call"; even "Jean", "-", "Pa", "u", "l"),
 * so a phrase or name could start or end inside one: "call engineer" of "on-call engineer", "Malo" of
 * "Saint-Malo". A span is grown to whole words: over the pieces written against it, and over a hyphen
 * written between two of them, within its sentence.
 */
const wordy = (t: Tokens, i: number) => WORD_PIECE.test(t.text[i] ?? "");
const attached = (t: Tokens, i: number) => t.spaces[i] === "";
const WORD_PIECE = /^[\p{L}\p{N}]/u;
const HYPHEN = /^[-\u2010\u2011]$/;

/** The first word's token of the sentence token `i` is in (past any opening mark or line break). */
function firstWord(t: Tokens, i: number): number {
  let first = t.sentenceStart[i]!;
  while (first < i && !wordy(t, first)) first++;
  return first;
}

/** The last token of the word that token `b` is part of (not past `last`). */
function wordEnd(t: Tokens, b: number, last: number): number {
  for (;;) {
    if (b + 1 <= last && attached(t, b + 1) && wordy(t, b + 1)) b++;
    else if (b + 2 <= last && HYPHEN.test(t.text[b + 1]!) && attached(t, b + 1) && attached(t, b + 2) && wordy(t, b + 2)) b += 2;
    else return b;
  }
}

/** The first token of the word that token `a` is part of (not before `first`). */
function wordStart(t: Tokens, a: number, first: number): number {
  for (;;) {
    if (a - 1 >= first && attached(t, a) && wordy(t, a - 1)) a--;
    else if (a - 2 >= first && HYPHEN.test(t.text[a - 1]!) && attached(t, a) && attached(t, a - 1) && wordy(t, a - 2)) a -= 2;
    else return a;
  }
}

/** The last token of up to two nouns after token `b` in its sentence (`b` when none follows). */
function nounRun(t: Tokens, b: number): number {
  const last = t.sentenceEnd[b]!;
  let end = b;
  for (let n = 0; n < 2 && end + 1 <= last && t.pos[end + 1] === "NOUN" && !CAPITALIZED.test(t.text[end + 1]!); n++) end = wordEnd(t, end + 1, last);
  return end;
}

/**
 * The tagger's name spans with their true edges. Its patterns see a name as a run of proper nouns, so a name
 * with a word it tags otherwise ("School of Building Arts", "Wystan Market Hall") or a possessive ("Mariners'
 * Institute") came out as fragments ("Arts", "Hall", "Institute": junk pages), and its `[PROPN] [ADP]
 * [PROPN]` joined two names over any preposition ("Institute in Corrowick"). A span is cut at a preposition
 * that does not join names, then grown over the capitalized words, joiners and possessive marks around it,
 * within its sentence (a sentence's opening article or preposition is not part of a name).
 */
function nameSpans(t: Tokens, start: number, end: number): [number, number][] {
  const pieces: [number, number][] = [];
  let from = start;
  for (let i = start; i <= end; i++) {
    const joins = (t.pos[i] === "ADP" || t.pos[i] === "CCONJ") && !NAME_JOINERS.has(t.text[i]!);
    if (joins) {
      if (i > from) pieces.push([from, i - 1]);
      from = i + 1;
    }
  }
  if (from <= end) pieces.push([from, end]);
  const capital = (i: number) => CAPITALIZED.test(t.text[i] ?? "") && !(i === t.sentenceStart[i] && NOT_NAME_START.has(t.pos[i]!));
  // A joiner or possessive at `i` joining the capitalized word at `head` (after it) to the name.
  const link = (i: number, head: number) => NAME_JOINERS.has(t.text[i]!) || (POSSESSIVE.has(t.text[i]!) && GENERIC_HEADS.has(t.text[head]!.toLowerCase()));
  return pieces.map(([a, b]) => {
    const first = t.sentenceStart[a]!;
    const last = t.sentenceEnd[a]!;
    for (;;) {
      if (b + 1 <= last && capital(b + 1)) b++;
      else if (b + 2 <= last && capital(b + 2) && link(b + 1, b + 2)) b += 2;
      else if (wordEnd(t, b, last) > b) b = wordEnd(t, b, last);
      else break;
    }
    // A model's number is part of its name ("Aero 3", "Windows 11", "Apollo 11"); not a year ("Smith 2019"), a
    // date ("May 5") or an amount ("3 kg").
    if (b + 1 <= last && MODEL_NUMBER.test(t.text[b + 1]!) && !CALENDAR_NAME.test(t.text[b]!) && !UNIT_WORD.test(t.text[b + 2] ?? "")) b++;
    for (;;) {
      if (a - 1 >= first && capital(a - 1)) a--;
      else if (a - 2 >= first && capital(a - 2) && link(a - 1, a)) a -= 2;
      else if (wordStart(t, a, first) < a) a = wordStart(t, a, first);
      else break;
    }
    return [a, b];
  });
}

const DEMONYM =
  /^(?:American|Australian|Austrian|Belgian|Brazilian|British|Canadian|Chinese|Cuban|Czech|Danish|Dutch|Egyptian|English|Finnish|French|German|Greek|Hungarian|Indian|Irish|Italian|Japanese|Korean|Mexican|Moroccan|Norwegian|Persian|Polish|Portuguese|Russian|Scottish|Spanish|Swedish|Swiss|Thai|Turkish|Vietnamese|Welsh)$/;
const MODEL_NUMBER = /^\d{1,3}$/;
const CALENDAR_NAME = /^(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|mon(?:day)?|tue(?:s(?:day)?)?|wed(?:nesday)?|thu(?:rs(?:day)?)?|fri(?:day)?|sat(?:urday)?|sun(?:day)?|spring|summer|autumn|fall|winter|week|day|page|step|chapter|section|part|table|figure|room|gate|platform|level|floor)$/i;
const UNIT_WORD = /^(?:%|percent|[kmc]?m|mi|miles?|km|kg|g|grams?|kilos?|lbs?|pounds?|t|tons?|tonnes?|ft|feet|inch(?:es)?|°c?|seconds?|secs?|s|minutes?|mins?|hours?|hrs?|h|days?|weeks?|months?|years?|yrs?|[kmgt]b|[kmg]?w|v|mah|euros?|dollars?|eur|usd|gbp|x|times|people|users|seats)$/i;

/** Sentences of a text and the name/noun phrases in each. `maxChars` bounds the work on huge texts. */
export function findPhrases(text: string, maxChars = 60_000): { sentences: string[]; phrases: Phrase[]; continues: boolean[] } {
  // No words (a page that is all code or rules, whose prose is empty): the tagger still reports one empty
  // sentence, whose text was undefined and failed the source ("undefined is not an object").
  if (!/[\p{L}\p{N}]/u.test(text)) return { sentences: [], phrases: [], continues: [] };
  const n = nlp();
  const its = n.its;
  const doc = read(text.length > maxChars ? text.slice(0, maxChars) : text);
  const sentenceOf: number[] = [];
  // The tokens' text, tags and sentences, read once; a sentence's text is its tokens' (the tagger's own
  // sentence text rebuilds the spacing again, a tenth of the tagging's time).
  const t: Tokens = { text: doc.tokens().out(), pos: doc.tokens().out(its.pos), spaces: doc.tokens().out(its.precedingSpaces), joined: "", starts: [], sentenceStart: [], sentenceEnd: [] };
  joinTokens(t);
  const sentences: string[] = [];
  /** Whether a sentence goes on in the paragraph of the one before it (no line break between them). */
  const continues: boolean[] = [];
  doc.sentences().each((s: any, index: number) => {
    const [a, b] = s.out(its.span) as [number, number];
    for (let i = a; i <= b; i++) {
      t.sentenceStart[i] = a;
      t.sentenceEnd[i] = b;
      sentenceOf[i] = index;
    }
    const sentence = spanText(t, a, b);
    sentences.push(sentence);
    // The tagger keeps a paragraph break before a sentence as its first token, or as that token's spacing.
    continues.push(index > 0 && !(t.spaces[a] ?? "").includes("\n") && !/^\s*\n/.test(sentence));
  });
  const tokensOf = (): Tokens => t;
  const phrases: Phrase[] = [];
  const grown: { span: [number, number]; phrase: Phrase }[] = [];
  const names: [number, number][] = [];
  for (const { type, start, end } of tagRuns(t.pos)) {
    if (type === "proper") {
      names.push(...nameSpans(tokensOf(), start, end));
    } else {
      const t = tokensOf();
      let [a, b] = [wordStart(t, start, t.sentenceStart[start]!), wordEnd(t, end, t.sentenceEnd[end]!)];
      // An instruction's verb read as the phrase's first noun ("Book flights and hotels"): the phrase is the rest.
      if (a === start && a === firstWord(t, a) && INSTRUCTION_VERBS.has(t.text[a]!.toLowerCase())) {
        if (b - a < 2) continue;
        a++;
      }
      // A name read as the phrase's first noun: an acronym ("UPS accounts also need …"), or a capitalized word
      // English never writes in lower case opening the sentence ("Shopify orders that are already fulfilled"):
      // the name is a name, the rest the phrase.
      if (isAcronym(t.text[a]!) || (a === firstWord(t, a) && UNKNOWN_NAME.test(t.text[a]!) && !englishFrequency().lowerCase.has(t.text[a]!.toLowerCase()))) {
        const nameEnd = wordEnd(t, a, b);
        names.push([a, nameEnd]);
        if (b - nameEnd < 2) continue;
        a = nameEnd + 1;
      }
      // A verb read as the phrase's last noun, as the price after it shows ("a check-up costs £55", "costs 40
      // EUR"): the phrase ends before it, and is none when one word is left. Not before a bare number ("school
      // district 5", "geodetic latitude 45°") nor an article ("gave the billing team a bonus").
      if (b < t.sentenceEnd[b]! && (CURRENCY.test(t.text[b + 1]!) || (t.pos[b + 1] === "NUM" && CURRENCY_CODE.test(t.text[b + 2] ?? "")))) {
        const last = wordStart(t, b, a);
        if (last <= a) continue;
        const before = last - 1;
        if (before === a || wordStart(t, before, a) === a) continue; // one word left
        b = before;
      }
      grown.push({ span: [a, b], phrase: { surface: spanText(t, a, b), kind: "phrase", sentence: sentenceOf[start]! } });
    }
  }
  // An acronym the tagger read as a common word ("UPS and FedEx refunds"): a name, unless English mostly writes
  // it as a word ("NOT", "FREE", "NOTE" in capitals are emphasis).
  if (ACRONYM_IN_TEXT.test(text)) {
    const t = tokensOf();
    const taken = (i: number) => names.some(([a, b]) => i >= a && i <= b) || grown.some(({ span: [a, b] }) => i >= a && i <= b);
    t.text.forEach((word, i) => {
      if (isAcronym(word) && !taken(i)) names.push([i, i]);
    });
  }
  // Two fragments of one name grow into the same span: each span once, the longest where they overlap.
  const kept: [number, number][] = [];
  for (const span of names.sort((x, y) => y[1] - y[0] - (x[1] - x[0]) || x[0] - y[0])) {
    if (!kept.some(([a, b]) => span[0] <= b && span[1] >= a)) kept.push(span);
  }
  const proper: Phrase[] = [];
  /** Name spans read as the phrase they open instead. */
  const asPhrase = new Set<[number, number]>();
  for (const span of kept.sort((x, y) => x[0] - y[0])) {
    const [a, b] = span;
    const t = tokensOf();
    if (a === b && SEASON.test(t.text[a]!) && /^\d{4}$/.test(t.text[a + 1] ?? "")) continue; // "in Fall 2016": a date
    if (a === b && ACRONYM.test(t.text[a]!) && !isAcronym(t.text[a]!)) continue; // "Do NOT share your FREE key": emphasis
    const sentence = sentenceOf[a]!;
    // A nationality before a noun says the noun's kind, and is no name: "Dutch oven", "French press", "Greek
    // yogurt" are the phrases, not "Dutch", "French" or "Greek".
    if (a === b && DEMONYM.test(t.text[a]!) && isCommonNoun(t.text[a + 1] ?? "")) {
      const end = nounRun(t, b);
      // A "noun" before an article is a verb ("The French won the battle").
      if (end > b && t.pos[end + 1] !== "DET") {
        grown.push({ span: [a, end], phrase: { surface: spanText(t, a, end), kind: "phrase", sentence } });
        asPhrase.add(span);
        continue;
      }
    }
    // A label's text opens as a sentence does ("Grace Mbeki: Practice manager."), and so does a table cell's
    // ("Checkout errors for EU customers" opening a cell: CELL_SEPARATOR). A capital after a semicolon in
    // prose is a name's ("…; Spring handles the beans").
    const opens = a === firstWord(t, a) || t.text[a - 1] === ":" || (t.text[a - 1] === ";" && t.spaces[a] === CELL_SEPARATOR.slice(1));
    // A word a sentence opens by defining is named by it ("Orbit is the order service behind the app."), even
    // a common noun's: a product, a team, a term of the trade.
    const defines = a === b && /^(?:is|was)$/i.test(t.text[b + 1] ?? "") && /^(?:a|an|the)$/i.test(t.text[b + 2] ?? "");
    const written = opens && !defines ? withoutOpeningRole(spanText(t, a, b)) : spanText(t, a, b);
    const surface = written && a === b ? withSharedSurname(t, a, kept) ?? written : written;
    if (surface) {
      proper.push({ surface, kind: "proper", sentence });
      continue;
    }
    // A common noun capitalized only because it opens the sentence starts the phrase of the nouns after it
    // ("Treatment plans above £1,000 …", "Practice manager."), which the tagger read as a name and dropped:
    // the phrase another source writes in lower case.
    const end = a === b ? nounRun(t, b) : b;
    if (end === b) continue;
    grown.push({ span: [a, end], phrase: { surface: spanText(t, a, end), kind: "phrase", sentence } });
    asPhrase.add(span);
  }
  // A phrase grown into a name's word ("Jean-Paul" of "u l" in "Jean-Paul Sartre") is part of the name; of
  // two phrases over the same words, the longer ("dental unit waterlines", not "unit waterlines").
  const overlaps = (x: [number, number], y: [number, number]) => x[0] <= y[1] && x[1] >= y[0];
  const longer = (x: [number, number], y: [number, number]) => y[1] - y[0] > x[1] - x[0];
  for (const { span, phrase } of grown) {
    if (kept.some((name) => !asPhrase.has(name) && overlaps(span, name))) continue;
    if (grown.some((other) => other.span !== span && overlaps(span, other.span) && longer(span, other.span))) continue;
    phrases.push(phrase);
  }
  phrases.push(...proper);
  return withAbbreviationsRejoined(sentences, phrases, continues);
}

/**
 * Two people sharing a surname written once: "Samuel and Martha Ode" names Samuel Ode as well as Martha Ode
 * (the first name alone matched no other source's "Samuel Ode"). The first name at `a`, then "and" or "&",
 * then a person's name of two words or more among `names`: its surname is the first name's too.
 */
function withSharedSurname(t: Tokens, a: number, names: [number, number][]): string | null {
  if (!/^(?:and|&)$/.test(t.text[a + 1] ?? "") || !isGivenName(t.text[a]!)) return null;
  const next = names.find(([from]) => from === a + 2);
  if (!next || next[1] - next[0] < 1) return null;
  const name = spanText(t, next[0], next[1]);
  return isPersonName(name) ? `${t.text[a]} ${spanText(t, next[0] + 1, next[1])}` : null;
}

/** A sentence the tagger ended at a short form ("… Okafor et al.", "e.g.", "cf."): lib/sentence-ends.ts. */
const endsInAbbreviation = (sentence: string) => !endsSentence(sentence.trim());

/**
 * The tagger ends a sentence at "et al." and "e.g." ("discussed Okafor et al." | "; Priya thinks …"): a
 * sentence so ended is joined to the next when that one does not open as a sentence does (lower case or
 * punctuation), and the phrases' sentence numbers follow.
 */
function withAbbreviationsRejoined(sentences: string[], phrases: Phrase[], continues: boolean[]): { sentences: string[]; phrases: Phrase[]; continues: boolean[] } {
  if (!sentences.some(endsInAbbreviation)) return { sentences, phrases, continues };
  const joined: string[] = [];
  const goesOn: boolean[] = [];
  const at: number[] = [];
  sentences.forEach((sentence, i) => {
    const previous = joined.at(-1);
    if (previous !== undefined && endsInAbbreviation(previous) && /^\s*[\p{Ll}\p{P}]/u.test(sentence)) {
      joined[joined.length - 1] = `${previous.trimEnd()}${/^\s*[;:,)]/.test(sentence) ? "" : " "}${sentence.trim()}`;
    } else {
      joined.push(sentence);
      goesOn.push(continues[i] ?? false);
    }
    at[i] = joined.length - 1;
  });
  return { sentences: joined, phrases: phrases.map((p) => ({ ...p, sentence: at[p.sentence] ?? p.sentence })), continues: goesOn };
}

/** The text of tokens a..b as written: each sentence and phrase a slice of one string, not a string built per span. */
function spanText(t: Tokens, a: number, b: number): string {
  return t.joined.slice(t.starts[a], t.starts[b]! + t.text[b]!.length);
}

function joinTokens(t: Tokens): void {
  const parts: string[] = [];
  let at = 0;
  for (let i = 0; i < t.text.length; i++) {
    const space = i === 0 ? "" : (t.spaces[i] ?? "");
    parts.push(space, t.text[i]!);
    at += space.length;
    t.starts[i] = at;
    at += t.text[i]!.length;
  }
  t.joined = parts.join("");
}
