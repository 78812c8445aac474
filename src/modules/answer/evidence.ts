// What the retrieved pages say about a question, as numbers: how much of the question (rarity-weighted) the
// best sentences cover, and whether they hold the kind of thing asked for (a name, a time, a quantity).
// The extractive answer picks its sentences from here and `thin` is decided from it (thin.ts). Every
// feature is a share of the question (0..1), so it means the same at every brain size; the ones thin.ts
// does not weigh are kept for scripts/eval-calibrate.ts, which compares them on the evaluation sets.
import { CAPITAL_NAMES, pairsOfTerms, reversedCompounds, splitCompounds, termVariants, wordsOf, type Retrieval, type RetrievedPage, type TermStats } from "../../retrieval";
import { candidateFeatures, NO_CANDIDATES, type CandidateFeatures } from "./candidates";
import { isQuestion, stem, sentencesOf, StemsOf, stemSet, type Sentence, type Words } from "./sentences";
import { measureAsked } from "./measures";
import { cueWords, expectedAnswerType, holdsAnswerType, saysPlace, type AnswerType } from "./answer-type";
import { actionAsked, agentForms, ASKED, CLOCK_TIME, consequenceAsked, COUNTED, definedThing, describesPerson, kindWords, listedThings, MODAL, overviewWords, plannedAsked, POLAR, PROCEDURE, questionPairs, UNWEIGHED, withoutAsked } from "./question";
import { extremeRows, sayingExtreme, superlativeOf } from "./superlative";
import { termWeights } from "./term-weights";
import { unmentionedNames } from "./unmentioned";

/** Pages whose sentences are weighed. */
const EVIDENCE_PAGES = 5;
/** The weight of a "how do I" question's action when sentences are ranked, as a share of its heaviest word. */
const ACTION_WEIGHT = 1.5;
/**
 * What a sentence's own words (and its headings below the page's title, a table row's headers) holding the
 * question add to its rank: "The board meets on the first Tuesday of every month" before every note of a page
 * titled "Board meeting minutes, 3 November 2026" (which names the question, and dates each note). Not for
 * a query of keywords ("pricing"): it asks for the page its title names, whose opening sentence comes first.
 */
const OWN_WORDS_BONUS = 0.05;
/**
 * How far a sentence defines `thing`: 2 "X is a …" (also after a bracket, "X (1810–1877) was a …"), "X, a …"
 * and a label's "X: the narrator, …"; 1 opening with X; else 0.
 */
function definingLevel(text: string, thing: string): number {
  const opening = text.replace(/^(?:the|an?)\s+/i, "").toLowerCase();
  if (!opening.startsWith(thing) || /[\p{L}\p{N}]/u.test(opening.charAt(thing.length))) return 0;
  return DEFINES.test(opening.slice(thing.length)) ? 2 : 1;
}
const DEFINES = /^(?:\s*\([^)]*\))?\s+(?:is|are|was|were)\s+(?:an?|the)\b|^,\s+(?:an?|the)\s|^\s*(?::|—|–)\s*\S/i;
/** A time of day's hour weighs this share of its rarity. */
const CLOCK_HOUR_WEIGHT = 0.5;
/** A sentence that only says yes or no. */
const BARE_REPLY = /^\s*(?:yes|no)\s*[.!]?\s*$/i;
/** A sentence whose subject is a pronoun standing for what the page is about. */
const OPENING_PRONOUN = /^(?:it|its|he|his|she|her|they|their)\b/i;
/** A field whose value is two or more names and nothing else: "Attendees: Omar Haddad, Lena Fischer, Tomás Ruiz." */
const NAME = String.raw`\p{Lu}[\p{L}'’.-]*(?:\s+\p{Lu}[\p{L}'’.-]*)*`;
const NAME_LIST = new RegExp(String.raw`^[\p{L}\p{N} ]{1,30}:\s*${NAME}(?:\s*(?:,|;|&|\band\b)\s*${NAME})+\s*\.?$`, "u");
/** What a list of names says of one of them, for "who is …": less than any sentence about them. */
const NAME_LIST_PENALTY = 0.3;
/** What a sentence without the measure a "how tall / far / long …" asks for loses (below). */
const UNMEASURED_PENALTY = 0.2;
/**
 * What `thin` counts a sentence off the question's subject less by when a sentence on it was retrieved
 * (onSubject; evaluation figures: thin.ts and README "Thin").
 */
const OFF_SUBJECT_DISCOUNT = 0.3;
/** A question word at least this share of its heaviest word's weight names its subject (below). */
const SUBJECT_WEIGHT = 0.5;
const NEXT_WORDS = new Set(["next", "upcoming"].map(stem));
const NO_WORDS = new Set<string>();
/** How much of what the sentence before names a sentence not opening with a pronoun is about (below). */
const ANTECEDENT_SHARE = 0.5;
/** "How many", "how much", "how tall" …: the asking words of a question for an amount. */
const KIND_ASKED = /\b(how (?:long|old|far|tall|high|deep|wide|often|fast|many|much))\b/i;
const MEASURE_CUE = /\bhow (?:long|old|far|tall|high|deep|wide|often|fast)\b/i;
/** A line's one-word label ("Owner: Priya Raman"). */
const LABEL = /^\s*(\p{L}{3,})\s*:(?!\/)/u;

export interface ScoredSentence {
  page: RetrievedPage;
  /** 0 = the best retrieved page. */
  pageRank: number;
  /** Position in the page, to keep extracted sentences in reading order. */
  index: number;
  text: string;
  /** The whole sentence `text` is a piece of (the same text unless the sentence was overlong). */
  whole: string;
  /** Term-weighted share of the query terms in the sentence or its page title, 0..1. */
  coverage: number;
  /** The same, from the sentence alone. */
  ownCoverage: number;
  /**
   * ownCoverage, or `coverage` (with its title and headings) when the sentence holds every question term
   * they do not name (modal verbs and the "kind" of "what kind of" aside): it answers the rest of a question
   * that names the page's subject ("What caused incident 2291?" of "Root cause: …" on the page "Incident 2291 postmortem").
   */
  completeCoverage: number;
  /** Whether completeCoverage is `coverage`: the sentence, with its title and headings, holds the whole question. */
  complete: boolean;
  /** A field of names only ("Attendees: …"), set for a "who is" or "what is" question. */
  nameList?: true;
  /** Whether the sentence holds the asked-for kind of answer; null when the question asks for no kind. */
  typeFound: boolean | null;
  /** Ranking score for extraction. */
  score: number;
  /** A list item's list (sentences.ts). */
  list?: { id: number; ordered: boolean };
  /** A table row (sentences.ts). */
  row?: true;
  /** A table row's table, cells and headers (sentences.ts), when its cells pair with its headers. */
  table?: { id: number; cells: string[]; headers: string[] };
  /** The heading above, when it holds the kind of answer asked for and the sentence does not: quoted with it. */
  heading?: string;
  /** The heading the sentence sits right under (plain text), if any: the section it belongs to. */
  section?: string;
  /** For "what is X?": 2 when the sentence defines X ("X is a …"), 1 when it opens with X, else 0. */
  defines: number;
  /** Its page's title or the headings above it name one of the question's heavier words: it is on the question's subject. */
  onSubject: boolean;
  /** For a question asking for a list (`Evidence.listed`): stems of the heading the sentence sits right under. */
  under?: Words;
}

export interface Evidence {
  /** The question's terms that count (weighed above 0: not a lone letter, nor an overview's "tell", "describe"). */
  terms: string[];
  expectedType: AnswerType | null;
  /** The question asks how to do something ("how do I …", "steps to …"): a numbered list answers it whole. */
  procedural: boolean;
  /**
   * The stem of the things a question asks to have listed ("What are the CONSEQUENCES of …", "What were the open
   * QUESTIONS?"): a list under a heading naming them answers it whole. Null for other questions.
   */
  listed: string | null;
  /** The question asks how many of the `listed` things there are ("How many plans are there?"). */
  counting: boolean;
  /** The question compares things it names ("Which is cheaper, the C1 or the F1?"). */
  comparing: boolean;
  /** The question asks for a measure ("how tall / far / long / old …"): a sentence without one says none of it. */
  measured: boolean;
  /** How a question for an amount asks for it ("how many", "how much", "how tall"), else null. */
  kindAsked: string | null;
  /** The stem of what the `listed` things are asked to be without ("gluten" of "Which dishes are gluten-free?"), or null. */
  without: string | null;
  /** The question asks which thing is meant ("Which ADR replaced Kafka?"): a page whose title names it all is the answer. */
  identifying: boolean;
  /** The question asks who or what something is ("Who is Lena Fischer?", "What is Brightpay?"). */
  defining: boolean;
  /** Names the question writes that no retrieved page holds (unmentioned.ts): the answer says so first. */
  unmentioned: string[];
  /** The stem of the action a "how do I …" question asks for ("roll" of "How do I roll an API key?"), or null. */
  action: string | null;
  /** The question is answered yes or no: a page's bare "Yes." or "No." is part of the answer. */
  polar: boolean;
  /** Best first. */
  sentences: ScoredSentence[];
  features: EvidenceFeatures;
}

/** The numbers `thin` is decided on; also printed by the evaluation scripts for calibration. */
export interface EvidenceFeatures extends CandidateFeatures {
  pages: number;
  /** Raw -bm25() of the best page, divided by the query's total IDF (comparable across queries). */
  lexicalStrength: number;
  /** Best sentence coverage (sentence + title), 0..1. */
  coverage: number;
  /** Best coverage by the sentence's own words, 0..1. */
  ownCoverage: number;
  /** Share of the query covered by the best page as a whole, 0..1. */
  pageCoverage: number;
  /** Best coverage among sentences that hold the asked-for kind of answer (= coverage when none is asked). */
  typedCoverage: number;
  /** Whether the question asks for a kind of answer (who, when, where, how many...): thin.ts holds those to more. */
  typed: boolean;
  /** Cosine of the best page, when vectors are on. */
  cosine: number | null;
  /** Best coverage of a sentence with its neighbours and its page title, 0..1. Candidate only (0 unless weighed with `candidates`). */
  windowCoverage: number;
  /**
   * Best coverage of the question's focus: the terms its page's title does not already name (the asked-for
   * detail rather than the topic), by one sentence's own words, 0..1 (1 when the title names every term).
   * Candidate only (0 unless weighed with `candidates`).
   */
  focusCoverage: number;
  /** Best share of the question's adjacent term pairs found near each other (≤ 3 words apart) in one sentence. Candidate only (0 unless weighed with `candidates`). */
  bigramCoverage: number;
  /** Weight (the question's heaviest = 1) of the heaviest term the best sentence and its title leave open. */
  heaviestMissing: number;
  /** Number of distinct question terms. */
  termCount: number;
  /** Best own coverage among the sentences of the two best-ranked pages. */
  topOwnCoverage: number;
  /** The same, from the best-ranked page alone. */
  firstOwnCoverage: number;
  /** Best own coverage of a sentence times its page's retrieval score (1 = the best page). */
  rankedOwnCoverage: number;
  /** rankedOwnCoverage over completeCoverage: what THIN_MODEL weighs (thin.ts). */
  completeRankedOwnCoverage: number;
  /** focusCoverage within the best-ranked page. Candidate only (0 unless weighed with `candidates`). */
  firstFocusCoverage: number;
  /** Best own coverage of a sentence of the best-ranked page with its neighbours (no title). Candidate only (0 unless weighed with `candidates`). */
  firstWindowOwnCoverage: number;
  /** Best coverage (sentence and title) among the sentences of the best-ranked page. */
  firstCoverage: number;
  /** Best coverage (sentence and title) among the sentences of the two best-ranked pages. */
  topCoverage: number;
  /** Best own coverage among sentences holding the asked-for kind of answer (= ownCoverage when none is asked). */
  typedOwnCoverage: number;
}

/**
 * `candidates`: also compute the candidate features the thin model does not use (sentence windows, focus,
 * term pairs, and candidates.ts), which scripts/eval-calibrate.ts compares; an ask skips them (left 0).
 */
export function weighEvidence(question: string, retrieval: Retrieval, stats: TermStats, opts: { candidates?: boolean } = {}): Evidence {
  const candidates = opts.candidates ?? false;
  const terms = retrieval.terms;
  const stems = terms.map(stem);
  // "Tell me about X", "what happened at X": the words asking for an overview are no part of what is asked.
  const overview = overviewWords(question);
  const consequence = consequenceAsked(question);
  const planned = plannedAsked(question);
  // Nor are the words it asks with (UNWEIGHED): "New patients should arrive early" answered "what SHOULD I do
  // if I'm sick?", for want of the word that matters.
  // A time of day's hour weighs half ("Can I take a taxi at 23:00?" of "Taxis are fine after 22:00": a page
  // rarely states the asker's time), its minutes nothing (the "00" matched every other time, "Core hours are
  // 10:00 to 15:00"); at a quarter, "What runs at 02:00?" lost "… at 02:00 each night" to a "ran on".
  const clock = [...question.matchAll(CLOCK_TIME)];
  const hours = new Set(clock.flatMap((m) => [m[1]!, String(Number(m[1]))]));
  const minutes = new Set(clock.flatMap((m) => [m[2]!, String(Number(m[2]))]));
  // "When is the NEXT home game?": the date answers which one is next; a fixtures list never says "next".
  const ordering = /^\s*when\b/i.test(question) ? NEXT_WORDS : NO_WORDS;
  const weighed = termWeights(terms, stats).map((w, i) =>
    overview?.has(stems[i]!) || planned?.has(stems[i]!) || UNWEIGHED.has(stems[i]!) || ordering.has(stems[i]!) || stems[i] === consequence || minutes.has(stems[i]!) ? 0 : hours.has(stems[i]!) ? CLOCK_HOUR_WEIGHT * w : w,
  );
  // A capital letter naming one of a kind ("group B", "Plan C", "vitamin D") weighs as the rarest word: a lone
  // letter otherwise weighs nothing (left over from "grey's"); so do "IT" and "US", otherwise "it" and "us".
  const capitals = capitalNames(question);
  const weights = capitals.size > 0 ? weighed.map((w, i) => (capitals.has(stems[i]!) ? Math.max(...weighed) || 1 : w)) : weighed;
  const total = weights.reduce((a, b) => a + b, 0);
  const heaviest = Math.max(0, ...weights);
  // "Who is Ines Varga?" asks what she is, not for a name: a sentence describing her holds no other name.
  const expectedType = describesPerson(question) ? null : expectedAnswerType(question);
  const measure = expectedType === "quantity" ? measureAsked(question) : null;
  const physicalMeasure = measure !== null && MEASURE_CUE.test(question);
  const procedural = PROCEDURE.test(question);
  const polar = POLAR.test(question);
  const ownWordsBonus = ASKED.test(question) ? OWN_WORDS_BONUS : 0;
  // "Which version added receipt scanning?": a changelog's item is quoted with the release heading it sits under.
  const versionAsked = VERSION_ASKED.test(question);
  // "What is the latest version?": the newest release heading of a changelog says it.
  const latest = LATEST_VERSION.exec(question);
  const latestWords = latest ? wordsOf(latest[0]).map(stem) : [];
  const listed = listedThings(question);
  const asking = definedThing(question);
  const questionWords = stemSet(question);
  // The wh-phrase's own words ("how MANY", "how TALL", "what YEAR") are answered by a sentence holding the
  // asked-for kind of thing, not by the word itself.
  const cues = expectedType ? cueWords(question) : new Set<string>();
  const isCue = stems.map((s) => cues.has(s));
  // A term is also covered by the one word its phrase is written as ("roll back" by "rollback", "shoes on
  // horses" by "horseshoes"), by the two words its compound is written as ("backups" by "backs up"), and by
  // its other spellings and short forms ("colour", "config").
  const phrases = [...pairsOfTerms(question, terms), ...reversedCompounds(terms)];
  const splits = splitCompounds(terms);
  const variants = termVariants(terms);
  // Each alternative is the stems a sentence must all hold: one word, or a short form's words ("ceo" is
  // "chief executive").
  const joinedOf = stems.map((s, i) => [
    ...phrases.flatMap((p) => (p.parts.some((part) => stem(part) === s) ? [[stem(p.joined)]] : [])),
    ...splits.flatMap((c) => (c.term === terms[i] ? [c.parts.map(stem)] : [])),
    ...variants.flatMap((v) => (v.term === terms[i] ? [wordsOf(v.variant).map(stem)] : [])),
  ]);
  // The doer of a question's verb ("Deciders: …" for "who decided"), for choosing sentences only: as evidence
  // for `thin` it made 1.3 points fewer unanswerable ClapNQ questions thin at 300 passages (calibration half)
  // and no answerable one less thin.
  const agentsOf = stems.map((s, i) => agentForms(terms[i]!, s, expectedType === "person"));
  const covers = (words: Words, i: number, typeFound: boolean, agents = false) =>
    words.has(stems[i]!) ||
    (typeFound && isCue[i]!) ||
    joinedOf[i]!.some((alternative) => alternative.every((j) => words.has(j))) ||
    (agents && agentsOf[i]!.some((form) => words.has(form)));
  const coverageOf = (words: Words, typeFound = false, agents = false) =>
    total > 0 ? stems.reduce((sum, _, i) => sum + (covers(words, i, typeFound, agents) ? weights[i]! : 0), 0) / total : 0;
  // "How do I ROLL an API key?": the action asked for weighs more than any other word when sentences are
  // ranked ("Keys are created in the dashboard under Developers > API keys" is no way to roll one); not for
  // `thin`, which weighs coverage as fitted.
  const action = procedural ? stems.indexOf(stem(actionAsked(question) ?? "")) : -1;
  const rankWeights = action >= 0 && weights[action]! > 0 ? weights.map((w, i) => (i === action ? ACTION_WEIGHT * heaviest : w)) : null;
  const rankTotal = rankWeights?.reduce((a, b) => a + b, 0) ?? 0;
  /** `coverage` of the same words as ranking weighs them (`plain` when it weighs as `thin` does). */
  const rankCoverageOf = (words: Words, typeFound: boolean, plain: number) =>
    rankWeights ? stems.reduce((sum, _, i) => sum + (covers(words, i, typeFound) ? rankWeights[i]! : 0), 0) / rankTotal : plain;
  const withAgents = agentsOf.some((forms) => forms.length > 0);
  const pairs = questionPairs(question, new Set(stems));
  const superlative = superlativeOf(question);
  // The question's whole numbers, which a range holding them says ("week 6" of a rota's "5-8" row).
  const numbers = stems.filter((s) => /^\d{1,6}$/.test(s)).map(Number);
  const percentages = percentagesOf(question);
  // The months it names, which a date written in numbers says ("What changed in February?" of "## 2026-02-14").
  const months = stems.flatMap((s) => (MONTH_NUMBER.has(s) ? [s] : []));
  const unasked = new Set([...MODAL, ...kindWords(question)]);
  // "When does the lease end?": a span of time says when it starts and ends ("runs from 1 September 2026 to 31
  // August 2027"), and how long it lasted ("How long did the outage last?": "From 14:05 to 14:52 UTC …").
  const bounds = expectedType === "time" ? stems.filter((s) => SPAN_BOUNDS.has(s)) : /\bhow long\b/i.test(question) ? stems.filter((s) => s === LAST) : [];

  const settled = expectedType === "place" ? stems.filter((s) => PLACE_VERBS.has(s)) : [];

  // A sentence is on the question's subject when its page's title or the headings above it name one of the
  // question's heavier words (at least half as heavy as its heaviest): "Home office" is not on the subject of
  // "Can I take a taxi home at 23:00?".
  const subjectWords = stems.filter((_, i) => weights[i]! > 0 && weights[i]! >= SUBJECT_WEIGHT * heaviest);
  const sentences: ScoredSentence[] = [];
  let pageCoverage = 0;
  let windowCoverage = 0;
  let focusCoverage = 0;
  let firstFocusCoverage = 0;
  let firstWindowOwnCoverage = 0;
  let bigramCoverage = pairs.length === 0 ? 1 : 0;
  retrieval.pages.slice(0, EVIDENCE_PAGES).forEach((page, pageRank) => {
    const titleStems = stemSet(page.title);
    const all = sentencesOf(page.markdown);
    // The rows holding a compared column's extreme say the question's superlative ("cheapest").
    const newest = latest ? newestVersionHeading(all) : undefined;
    // A comparative's rows are those whose first cell (the row's name) the question names ("Team or Business").
    const extremes = superlative ? extremeRows(all, superlative, (row) => [...stemSet(row.table!.cells[0] ?? "")].some((w) => questionWords.has(w))) : NO_ROWS;
    if (pageRank === 0) pageCoverage = coverageOf(anyOf(titleStems, ...all.map((s) => s.stems)));
    // The focus: what the title does not name.
    const focusWeight = stems.reduce((sum, s, i) => sum + (titleStems.has(s) ? 0 : weights[i]!), 0);
    all.forEach((sentence, index) => {
      // A question states nothing: a FAQ's "Which payment methods do you accept?" is no answer to the same
      // question. Unless it is an item listed under a heading the question names: the "Open questions" of
      // meeting notes are what "What are the open questions?" asks for.
      if (isQuestion(sentence.whole) && !(sentence.list && stems.some((s, i) => weights[i]! > 0 && sentence.context.has(s)))) return;
      // A FAQ's bare "No." answers its own question ("Can I increase the top speed?"), not "What is the top speed?".
      if (!polar && BARE_REPLY.test(sentence.whole)) return;
      const ownType = expectedType ? holdsAnswerType(sentence.text, expectedType, questionWords, measure) : null;
      // The kind asked for may be in the heading the sentence sits under: a changelog's "## 3.0.0 (2026-01-20)"
      // dates its items ("When was the v1 API removed?"); the answer quotes the heading with the sentence.
      // The page's own title too ("Engineering sync, 13 October 2026" dates its notes, "Brandt and Liu (2021):
      // caffeine and reaction time" names the authors), except for an amount: a title's numbers are no amount
      // ("How much do labs count?" was "CS 241 … (Spring 2027): Labs are on Fridays.").
      const headingOfType =
        sentence.heading !== undefined && (sentence.heading !== page.title || expectedType !== "quantity") ? sentence.heading : undefined;
      const typeInHeading = ownType === false && headingOfType !== undefined && holdsAnswerType(headingOfType, expectedType!, questionWords, measure);
      const typeFound = ownType === null ? null : ownType || typeInHeading;
      let stated = numbers.length > 0 || percentages.length > 0 ? withRangesHolding(sentence.stems, sentence.text, numbers, percentages) : sentence.stems;
      if (months.length > 0) stated = withMonthsDated(stated, `${sentence.heading ?? ""} ${sentence.text}`, months);
      if (capitals.size > 0) stated = withCapitalsAsWritten(stated, sentence.text, capitals);
      // A line labelled with the doer of the question's verb says it: "Owner: Priya Raman" is who owns it,
      // "Organizer: …" who organizes it (as evidence too: a label is no word in passing).
      if (withAgents) {
        const label = LABEL.exec(sentence.text)?.[1];
        const done = label === undefined ? -1 : agentsOf.findIndex((forms) => forms.includes(stem(label.toLowerCase())));
        if (done >= 0) stated = anyOf(stated, new Set([stems[done]!]));
      }
      if (bounds.length > 0 && typeFound === true) {
        // A bound said in other words is that bound: "What time does school start?" of "The gates open at 8:40",
        // or by "from"/"until" a time, in the sentence or the heading that dates it ("Lunch (from 12:00)").
        const dated = sentence.heading !== undefined && sentence.heading !== page.title ? `${sentence.text} ${sentence.heading}` : sentence.text;
        const said = SPAN.test(dated) ? bounds : bounds.filter((b) => saysBound(b, stated, dated));
        if (said.length > 0) stated = spanning(stated, said);
      }
      // "Where is Tomás BASED?" of "Location: Madrid": a place said as one says where something is based,
      // located or held.
      if (settled.length > 0 && typeFound === true && saysPlace(sentence.text)) stated = spanning(stated, settled);
      if (newest !== undefined && sentence.heading === newest) stated = spanning(stated, latestWords);
      const says = extremes.has(index) ? sayingExtreme(stated, superlative!) : stated;
      const ownCoverage = coverageOf(says, typeFound === true);
      // With its page's title and the headings it sits under: what the sentence is about.
      const coverage = coverageOf(anyOf(says, titleStems, sentence.context), typeFound === true);
      // The question's terms beyond the sentence's title and headings (and its modal verbs, "what MUST I
      // check": an answer says "Check …"; and "what KIND of"): a sentence holding all of them answers with its title.
      const asked = stems.flatMap((s, i) => (weights[i]! > 0 && !unasked.has(s) && !titleStems.has(s) && !sentence.context.has(s) ? [i] : []));
      // When the title and headings name the whole question, a sentence under a heading that names some of it
      // answers it ("What do I do before tagging a release?" of the items under "Before tagging a release:");
      // so does the page's opening sentence for an overview of what the title names ("tell me about remote
      // work" of "Remote work policy").
      const complete =
        asked.length > 0
          ? asked.every((i) => covers(says, i, typeFound === true))
          : (overview !== null && index === 0) || stems.some((s, i) => weights[i]! > 0 && sentence.context.has(s));
      const completeCoverage = complete ? coverage : ownCoverage;
      // A sentence opening with a pronoun ("It runs on ...") is about its page's subject, and so is the lead an
      // overview asks for: its title counts as its own words when choosing sentences (not for `thin`, which
      // weighs ownCoverage as fitted).
      // So is a complete sentence whose headings (a table row's headers) name part of the question: "What is the
      // default port?" of the row "BRAINBOX_PORT | 8080" under "Default" ranks as one saying both words.
      const framed = complete && stems.some((s, i) => weights[i]! > 0 && sentence.context.has(s));
      // A sentence opening with a pronoun is also about what the sentence before it in its section names ("Its
      // customers were moved to Beacon" after "Harbor, the first product, was retired in 2020."); any other
      // sentence half as surely: "The keepers rowed out and rescued eleven of the crew." after "… the brig Oriel
      // struck the Grey Rocks" is the Oriel's crew. The whole of it for every sentence lost gold pages in large
      // brains and lengthened answers (scripts/eval-squad2.ts, eval-clapnq.ts).
      const before = all[index - 1];
      const pronoun = OPENING_PRONOUN.test(sentence.text);
      const antecedent = before && before.heading === sentence.heading ? before.stems : NONE;
      const about = antecedent === NONE ? null : anyOf(says, titleStems, sentence.context, antecedent);
      const plainRank = rankCoverageOf(anyOf(says, titleStems, sentence.context), typeFound === true, coverage);
      const aboutRank = about ? rankCoverageOf(about, typeFound === true, coverageOf(about, typeFound === true)) : plainRank;
      const rankCoverage = pronoun ? aboutRank : plainRank + ANTECEDENT_SHARE * (aboutRank - plainRank);
      // What a sentence answering a question in its paragraph says includes that question's words ("No
      // buttermilk? Stir 1 tbsp of lemon juice into 500 ml of milk." is about buttermilk, as its page's title is).
      const saying = sentence.asked ? anyOf(says, sentence.asked) : says;
      const subject =
        pronoun || (complete && asked.length === 0) || framed
          ? rankCoverage
          : sentence.asked
            ? rankCoverageOf(saying, typeFound === true, coverageOf(saying, typeFound === true))
            : rankCoverageOf(says, typeFound === true, ownCoverage);
      // What the sentence's own words and its headings below the page's title hold of the question.
      const spoken = coverageOf({ has: (s) => saying.has(s) || (sentence.context.has(s) && !titleStems.has(s)) }, typeFound === true);
      // A sentence whose headings name the whole question sits in the section about it ("Who is Maria Okafor?"
      // of "Head of platform." under "## Maria Okafor"), ahead of one that only names it in passing. Not by the
      // page's title: it heads every sentence of the page ("Board meeting minutes, 3 November 2026" is no
      // section on when the board meets).
      const section =
        asked.length === 0 && stems.every((s, i) => weights[i]! === 0 || sentence.context.has(s)) && stems.some((s, i) => weights[i]! > 0 && sentence.context.has(s) && !titleStems.has(s));
      // A "how do I" is answered by a command as a "who" is by a name.
      // What the doers of the question's verbs add to the sentence's coverage, for its rank.
      const agentGain = withAgents ? coverageOf(anyOf(says, titleStems, sentence.context), typeFound === true, true) - coverage : 0;
      // "What is Parcelwise?": a sentence whose subject it is ("Parcelwise has three plans"), most of all one
      // defining it ("Initech is a software company"), before one naming it in passing ("Email: support@parcelwise…").
      const defines = asking === null ? 0 : definingLevel(sentence.text, asking);
      // "Where is Omar?" of a team table: the row saying "Location: London" says where, more surely than a
      // sentence naming him among capitalized names ("Attendees: Maya Chen, Omar Haddad, …").
      const placeSaid = expectedType === "place" && typeFound === true && saysPlace(sentence.text) ? 0.1 : 0;
      // "Who is Lena Fischer?" is not answered by a list of names she is in ("Attendees: Omar Haddad, Lena Fischer.").
      const nameList = asking !== null && NAME_LIST.test(sentence.whole);
      // "How tall / far / long / old …" asks for a measure of that kind: a sentence holding none cannot say it, however
      // many of the question's words it has ("How tall is the lighthouse?" was "Wray … designed harbours and
      // lighthouses", not "The tower is 31 metres tall"). Not "how many / much" nor a price, whose amounts are
      // often words the measure does not read (SQuAD lost gold citations).
      const unmeasured = physicalMeasure && typeFound === false ? UNMEASURED_PENALTY : 0;
      const score = -unmeasured + (nameList ? -NAME_LIST_PENALTY : 0) + rankCoverage + agentGain + 0.25 * subject + 0.1 * page.score + (ownType || (procedural && sentence.command) ? 0.1 : typeFound ? 0.05 : 0) + placeSaid + (section ? 0.1 : 0) + 0.1 * defines + ownWordsBonus * spoken;
      sentences.push({ ...(nameList ? { nameList: true as const } : {}), page, pageRank, index, text: sentence.text, whole: sentence.whole, coverage, ownCoverage, completeCoverage, complete, typeFound, score, defines, onSubject: subjectWords.some((s) => titleStems.has(s) || sentence.context.has(s)), list: sentence.list, ...(sentence.row ? { row: true as const } : {}), ...(sentence.table ? { table: sentence.table } : {}), ...(sentence.heading !== undefined ? { section: sentence.heading } : {}), ...(typeInHeading || ((versionAsked || latest) && VERSION.test(sentence.heading ?? "")) ? { heading: sentence.heading } : {}), ...(listed && sentence.heading ? { under: stemSet(sentence.heading) } : {}) });
      if (!candidates) return;
      const window = anyOf(titleStems, sentence.stems, all[index - 1]?.stems ?? NONE, all[index + 1]?.stems ?? NONE);
      windowCoverage = Math.max(windowCoverage, coverageOf(window, typeFound === true));
      const focus =
        focusWeight > 0
          ? stems.reduce((sum, s, i) => sum + (!titleStems.has(s) && covers(sentence.stems, i, typeFound === true) ? weights[i]! : 0), 0) / focusWeight
          : 1;
      focusCoverage = Math.max(focusCoverage, focus);
      if (pageRank === 0) {
        firstFocusCoverage = Math.max(firstFocusCoverage, focus);
        const neighbours = anyOf(sentence.stems, all[index - 1]?.stems ?? NONE, all[index + 1]?.stems ?? NONE);
        firstWindowOwnCoverage = Math.max(firstWindowOwnCoverage, coverageOf(neighbours, typeFound === true));
      }
      if (pairs.length > 0) bigramCoverage = Math.max(bigramCoverage, pairsNear(pairs, sentence.text) / pairs.length);
    });
  });
  // Of equals, the one whose own words hold more of the question (as ownWordsBonus, not for keywords): a
  // table's rows alike under headers naming the question, the row whose cells name it ("Deductible
  // (individual)" before "Monthly premium").
  sentences.sort((a, b) => b.score - a.score || a.pageRank - b.pageRank || (ownWordsBonus > 0 ? b.ownCoverage - a.ownCoverage : 0) || a.index - b.index);

  const top = retrieval.pages[0];
  // What the best sentence (whole, with its title) leaves open, by its heaviest term.
  const first = sentences[0];
  const atBest = first ? anyOf(new StemsOf(first.whole), stemSet(first.page.title)) : NONE;
  const heaviestMissing =
    heaviest > 0 ? Math.max(0, ...stems.map((_, i) => (covers(atBest, i, first?.typeFound === true) ? 0 : weights[i]! / heaviest))) : 0;
  const best = (pick: (s: ScoredSentence) => number, among = sentences) => among.reduce((m, s) => Math.max(m, pick(s)), 0);
  // When a sentence on the question's subject was retrieved, one on another subject matching some of its words
  // is likelier a chance match of a large brain (thin.ts).
  const subjectRetrieved = sentences.some((s) => s.onSubject);
  let unmentioned: string[] | undefined;
  return {
    terms: terms.filter((_, i) => weights[i]! > 0),
    expectedType,
    procedural,
    listed,
    counting: listed !== null && COUNTED.test(question),
    measured: physicalMeasure,
    kindAsked: expectedType === "quantity" ? (KIND_ASKED.exec(question)?.[1]?.toLowerCase() ?? null) : null,
    comparing: superlative?.comparative === true,
    without: listed !== null ? withoutAsked(question) : null,
    identifying: /^\s*which\b/i.test(question),
    defining: asking !== null,
    // Read only by the extractive answer (a /context call never needs it).
    get unmentioned() {
      return (unmentioned ??= unmentionedNames(question, retrieval.pages, stats));
    },
    action: action >= 0 ? stems[action]! : null,
    polar,
    sentences,
    features: {
      pages: retrieval.pages.length,
      lexicalStrength: top && total > 0 ? top.lexical / total : 0,
      coverage: best((s) => s.coverage),
      ownCoverage: best((s) => s.ownCoverage),
      pageCoverage,
      typedCoverage: expectedType ? best((s) => s.coverage, sentences.filter((s) => s.typeFound)) : best((s) => s.coverage),
      typed: expectedType !== null,
      cosine: top?.cosine ?? null,
      windowCoverage,
      focusCoverage,
      bigramCoverage,
      heaviestMissing,
      termCount: terms.length,
      topOwnCoverage: best((s) => s.ownCoverage, sentences.filter((s) => s.pageRank < 2)),
      firstOwnCoverage: best((s) => s.ownCoverage, sentences.filter((s) => s.pageRank === 0)),
      firstFocusCoverage,
      firstWindowOwnCoverage,
      rankedOwnCoverage: best((s) => s.ownCoverage * Math.min(1, Math.max(0, s.page.score))),
      completeRankedOwnCoverage: bestRankedProse(sentences, subjectRetrieved),
      firstCoverage: best((s) => s.coverage, sentences.filter((s) => s.pageRank === 0)),
      topCoverage: best((s) => s.coverage, sentences.filter((s) => s.pageRank < 2)),
      typedOwnCoverage: expectedType ? best((s) => s.ownCoverage, sentences.filter((s) => s.typeFound)) : best((s) => s.ownCoverage),
      ...(candidates ? candidateFeatures(stems, weights, sentences, retrieval.pages.slice(0, EVIDENCE_PAGES)) : NO_CANDIDATES),
    },
  };
}

/**
 * The best complete coverage of a sentence at its page's score (capped to 0..1), among table rows, list items
 * and sentences that read as prose (isProse: read only for a sentence that would be the best so far).
 */
function bestRankedProse(sentences: ScoredSentence[], subjectRetrieved: boolean): number {
  let best = 0;
  for (const s of sentences) {
    const ranked = s.completeCoverage * Math.min(1, Math.max(0, s.page.score)) * (subjectRetrieved && !s.onSubject ? 1 - OFF_SUBJECT_DISCOUNT : 1);
    if (ranked > best && (s.row || s.list || isProse(s.text))) best = ranked;
  }
  return best;
}

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
function isProse(text: string): boolean {
  const tokens = text.split(/\s+/).filter(Boolean);
  if (tokens.length < PROSE_MIN_TOKENS) return true;
  const symbols = tokens.filter((t) => !/\p{L}{2,}/u.test(t)).length / tokens.length;
  if (symbols > PROSE_SYMBOL_SHARE) return false;
  return symbols <= TABLE_SYMBOL_SHARE || tokens.filter((t) => FUNCTION_WORDS.has(t.toLowerCase())).length >= tokens.length * PROSE_FUNCTION_SHARE;
}
const PROSE_MIN_TOKENS = 12;
const PROSE_SYMBOL_SHARE = 0.5;
const TABLE_SYMBOL_SHARE = 0.25;
const PROSE_FUNCTION_SHARE = 0.1;
const FUNCTION_WORDS = new Set("the of and a an to in is was are were on for with by as at from that this it its be been has have had or which who not but their his her they he she".split(" "));

const NONE: Words = new Set<string>();
const NO_ROWS: Set<number> = new Set();
/** "5-8", "5–8", "5 to 8": a range of whole numbers (not a date's "2025-11"). */
const RANGE = /(?<![\d.,:/-])(\d{1,6}(?:\.\d+)?)\s*%?\s*(?:-|–|—|to)\s*(\d{1,6}(?:\.\d+)?)(?![\d.,:/-]\d)/g;
/**
 * A bound on one side, of a percentage: "below 95.0%", "over 99%". Only percentages, of a question's
 * percentage: "at least 2 years" said the "409" of "What does a 409 mean?".
 */
const BOUND = /\b(below|under|less than|fewer than|up to|at most|above|over|more than|at least)\s+(\d{1,6}(?:\.\d+)?)\s*(?:%|percent\b)/gi;
/** The percentages a question states ("if uptime is 98%"). */
const percentagesOf = (question: string) => [...question.matchAll(/(\d{1,6}(?:\.\d+)?)\s*(?:%|percent\b)/gi)].map((m) => Number(m[1]));
const UPPER_BOUND = /^(?:below|under|less than|fewer than|up to|at most)$/i;

/**
 * A sentence's words with the question's numbers its ranges hold: "5-8" says 6 ("Who is on call in week 6?"),
 * "95.0% to 99.0%" says 98 and "below 95.0%" says 90 ("What credit do I get if uptime is 98%?").
 */
function withRangesHolding(words: Words, text: string, numbers: number[], percentages: number[]): Words {
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
const MONTH_NUMBER = new Map(
  ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"].flatMap((name, i) => [
    [stem(name), i + 1] as const,
    [stem(name.slice(0, 3)), i + 1] as const,
  ]),
);
/** An ISO date ("2026-02-14"), the one way of writing a date in numbers that reads the same everywhere. */
const ISO_DATE = /\b\d{4}-(\d{2})-\d{2}\b/g;

/** A sentence's words with the question's months its (or its heading's) ISO dates fall in. */
function withMonthsDated(words: Words, text: string, months: string[]): Words {
  const dated = new Set([...text.matchAll(ISO_DATE)].map((m) => Number(m[1])));
  const held = months.filter((m) => dated.has(MONTH_NUMBER.get(m)!));
  return held.length === 0 ? words : { has: (s) => held.includes(s) || words.has(s) };
}

/** A question asking for a version or release, and a heading naming one ("4.1.0 (2026-08-02)", "v2.3", "Release 5"). */
const VERSION_ASKED = /\b(?:which|what|in which) (?:version|release)\b/i;
const LATEST_VERSION = /\b(?:latest|newest|current|most recent|last)\s+(?:version|release)\b/i;

/** Whether version `a` (its numbers: 4.10.0 → [4, 10, 0]) is newer than `b`. */
function newerVersion(a: number[], b: number[]): boolean {
  for (let i = 0; i < Math.max(a.length, b.length); i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
  return false;
}

/** The heading of a page's newest release ("## 4.2.0 (2026-10-14)"), by its version number; undefined when none. */
function newestVersionHeading(sentences: Sentence[]): string | undefined {
  let best: { heading: string; parts: number[] } | undefined;
  for (const { heading } of sentences) {
    const version = heading === undefined ? null : /\bv?(\d+(?:\.\d+)+)\b/i.exec(heading);
    if (!version) continue;
    const parts = version[1]!.split(".").map(Number);
    if (!best || newerVersion(parts, best.parts)) best = { heading: heading!, parts };
  }
  return best?.heading;
}
const VERSION = /\bv?\d+\.\d+(?:\.\d+)?\b|\b(?:version|release)\s+\d/i;

/** Words for when something starts, and for when it ends (stems): a question asking either names a bound. */
const BOUND_WORDS = [new Set(["start", "begin", "commence", "open"].map(stem)), new Set(["end", "finish", "close", "expire"].map(stem))];
const SPAN_BOUNDS = new Set(BOUND_WORDS.flatMap((group) => [...group]));
/** A start or an end said by a preposition before a time, in BOUND_WORDS' order: "from 12:00", "until 11:30". */
const BOUND_BY_PREPOSITION = [/\bfrom\s+\d{1,2}(?:[:.]\d{2})?\b/i, /\b(?:until|till)\s+\d{1,2}(?:[:.]\d{2})?\b/i];
const LAST = stem("last");
/** The verbs of "where is it …" that a place said as one says (saysPlace). */
const PLACE_VERBS = new Set(["based", "located", "situated", "headquartered", "held", "hosted", "live", "lives", "work", "works"].map(stem));

/**
 * How long something lasts, said as a length of time it goes on "for" or "takes": "keeps the rack running for
 * about 25 minutes", "the flight takes 2 hours".
 */
const DURATION =
  /\b(?:for|takes?|took)\s+(?:about\s+|around\s+|roughly\s+|approximately\s+|nearly\s+|up to\s+|at least\s+|over\s+)?(?:\d+(?:[.,]\d+)?|an?|one|two|three|four|five|six|seven|eight|nine|ten|twelve|a few|several)\s+(?:second|minute|hour|day|week|month|year)s?\b/i;

/**
 * Whether a sentence says bound `b` in other words: a word of its group ("open" for "start"), or "from"/"until" a
 * time; how long something lasts by a length of time (DURATION).
 */
function saysBound(b: string, words: Words, text: string): boolean {
  if (b === LAST) return DURATION.test(text);
  const at = BOUND_WORDS.findIndex((group) => group.has(b));
  return at >= 0 && ([...BOUND_WORDS[at]!].some((w) => words.has(w)) || BOUND_BY_PREPOSITION[at]!.test(text));
}
/**
 * A span of time, which says both its bounds: "from … to/until …", "8–15 May", "2019–2023", "9:00–17:00" (not a
 * phone's "555-0177"; not "until 18:00", which says only its end).
 */
const SPAN =
  /\bfrom\b(?:[^.;:]|(?<=\d)[.:](?=\d)){1,40}?\b(?:to|until|till|through)\b|\b\d{1,2}\s*[–—-]\s*\d{1,2}\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)|\b(?:1[5-9]|20)\d{2}\s*[–—-]\s*(?:(?:1[5-9]|20)\d{2}|\d{2})\b|\b\d{1,2}[:.]\d{2}\s*[–—-]\s*\d{1,2}[:.]\d{2}\b/i;

/**
 * What a question names in capitals that would otherwise weigh nothing (lower-cased, as its terms are): a
 * letter after a word, "group B", "Plan C" (not "A" or "I", which are words), and "IT", "US" (CAPITAL_NAMES).
 */
function capitalNames(question: string): Set<string> {
  const letters = [...question.matchAll(/(?<=\p{L}{2,}\s)([B-HJ-Z])(?![\p{L}\p{N}'’])/gu)];
  return new Set([...letters, ...question.matchAll(CAPITAL_NAMES)].map((m) => m[1]!.toLowerCase()));
}

/** A sentence says what the question names in capitals only in capitals ("Group: B", "the IT desk"), not as "b" or "it". */
function withCapitalsAsWritten(words: Words, text: string, names: Set<string>): Words {
  const written = new Set([...text.matchAll(/(?<![\p{L}\p{N}])([B-HJ-Z]|IT|US)(?![\p{L}\p{N}])/gu)].map((m) => m[1]!.toLowerCase()));
  return { has: (s) => (names.has(s) ? written.has(s) : words.has(s)) };
}

/** A span's words with the question's words for its start or end. */
const spanning = (words: Words, bounds: string[]): Words => ({ has: (s) => bounds.includes(s) || words.has(s) });

/** The union of word sets, without building it (a sentence with its title and headings, a whole page). */
const anyOf = (...sets: Words[]): Words => ({ has: (word) => sets.some((set) => set.has(word)) });

/** How many of the pairs appear within 3 words of each other in the text (either order). */
function pairsNear(pairs: [string, string][], text: string): number {
  const words = wordsOf(text).map(stem);
  const at = new Map<string, number[]>();
  words.forEach((w, i) => at.set(w, [...(at.get(w) ?? []), i]));
  return pairs.filter(([a, b]) => (at.get(a) ?? []).some((i) => (at.get(b) ?? []).some((j) => Math.abs(i - j) <= 3))).length;
}
