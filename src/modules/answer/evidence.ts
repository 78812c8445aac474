// What the retrieved pages say about a question, as numbers: how much of the question (rarity-weighted) the
// best sentences cover, and whether they hold the kind of thing asked for (a name, a time, a quantity).
// The extractive answer picks its sentences from here and `thin` is decided from it (thin.ts). Every
// feature is a share of the question (0..1), so it means the same at every brain size; the ones thin.ts
// does not weigh are kept for scripts/eval-calibrate.ts, which compares them on the evaluation sets.
import { pairsOfTerms, reversedCompounds, splitCompounds, termVariants, wordsOf, type Retrieval, type TermStats } from "../../retrieval";
import { candidateFeatures, NO_CANDIDATES } from "./candidates";
import { isQuestion, stem, sentencesOf, StemsOf, stemSet, type Words } from "./sentences";
import { measureAsked } from "./measures";
import { cueWords, expectedAnswerType, holdsAnswerType, saysPlace } from "./answer-type";
import { actionAsked, agentForms, ASKED, CLOCK_TIME, consequenceAsked, COUNTED, definedThing, describesPerson, kindWords, listedThings, MODAL, overviewWords, plannedAsked, POLAR, PROCEDURE, questionPairs, UNWEIGHED, withoutAsked } from "./question";
import { extremeRows, sayingExtreme, superlativeOf } from "./superlative";
import { termWeights } from "./term-weights";
import type { Evidence, EvidenceFeatures, ScoredSentence } from "./evidence-types";

export type { Evidence, EvidenceFeatures, ScoredSentence } from "./evidence-types";
import { LAST, LATEST_VERSION, MONTH_NUMBER, NONE, NO_ROWS, PLACE_VERBS, SPAN, SPAN_BOUNDS, VERSION, VERSION_ASKED, anyOf, capitalNames, isProse, newestVersionHeading, pairsNear, percentagesOf, saysBound, spanning, withCapitalsAsWritten, withMonthsDated, withRangesHolding } from "./evidence-text";
import { unmentionedNames } from "./unmentioned";
import { NEXT_LIST } from "./words/common";

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
const NEXT_WORDS = new Set(NEXT_LIST.map(stem));
const NO_WORDS = new Set<string>();
/** How much of what the sentence before names a sentence not opening with a pronoun is about (below). */
const ANTECEDENT_SHARE = 0.5;
/** "How many", "how much", "how tall" …: the asking words of a question for an amount. */
const KIND_ASKED = /\b(how (?:long|old|far|tall|high|deep|wide|often|fast|many|much))\b/i;
const MEASURE_CUE = /\bhow (?:long|old|far|tall|high|deep|wide|often|fast)\b/i;
/** A line's one-word label ("Owner: Priya Raman"). */
const LABEL = /^\s*(\p{L}{3,})\s*:(?!\/)/u;


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
