// A chain followed hop by hop through the pages, for questions whose relations no list names: "Who is the
// spouse of the actor that plays Vision in Avengers: Age of Ultron?". The first hop is the retrieved pages'
// sentence that says most of what is asked ("Paul Bettany … the Vision in … Age of Ultron"); the thing it
// names that the question does not (its page's subject, or a name in it) is the bridge; the next hop is a
// sentence about the bridge, on its own page or on a page that mentions it, that says what the hops before
// left unsaid ("… married to Paul Bettany"). Hops go on until nearly all of the question is said. The answer
// quotes the last hop first, then the ones that led there, each page cited. A chain whose next hop no page
// says is unfinished: the first hop's sentence does not answer the question (rule thin.unfinished-chain).
import type { RetrievedPage } from "../../../retrieval";
import { holdsAnswerType } from "../answer-type";
import { stemSet } from "../sentences";
import { isDemonym } from "../words/nationalities";
import { relationCues } from "./chain-terms";
import type { QuestionFrame } from "../frame";
import { ruleOn, RULES } from "../rules";
import { askedTerms, clauseOf, mentions, saidOf, says, writes, writtenNames, type AskedTerm, type WrittenName } from "./chain-terms";
import { bareTitle, names, namesPage, plain, type PageReader } from "./pages";
import type { Fact } from "./shaped";
import { namesIn } from "./values";

/** MuSiQue-style questions chain up to four single-hop questions. */
const MAX_HOPS = 4;
/** The retrieved pages a first hop is looked for in (the retriever's best). */
const FIRST_PAGES = 5;
/** A first hop saying a name the question writes needs less of the question (a name matched whole is no chance match). */
const NAMED_FIRST_SHARE = 0.1;
/** How much more a first hop starting from the question's innermost name weighs than one from its outermost. */
const INNER_WEIGHT = 0.5;
/** The question's names searched for a first hop's pages. */
const NAMED_SEARCHES = 3;
/** Names of a hop tried as the bridge to the next, its page's subject first. */
const BRIDGES = 5;
/** A later bridge of a hop counts this much less than the one before it (the page's subject is likeliest). */
const BRIDGE_DISCOUNT = 0.85;
/** A bridge's own page says more surely of it than a page that mentions it. */
const OWN_PAGE = 1.25;
/** Cue words of the unsaid relations added to a hop's search. */
const CUE_WORDS = 4;
/** A hop whose bridge is named in the sentence before counts a little less than one naming it itself. */
const ADJACENT = 0.9;
/** A chain is done when at most this share of the question's weight is left unsaid. */
const DONE_SHARE = 0.08;
/** A first hop says at least this share of the question's weight (else it matched by chance). */
const FIRST_SHARE = 0.25;

export interface Chain {
  facts: Fact[];
  /** Hops found, first to last. */
  hops: number;
  /** Whether the hops say (nearly) all the question asks. */
  complete: boolean;
  /** Whether a relation the question asks ("spouse", "founded") is left unsaid: the chain surely lacks a hop. */
  relationUnsaid: boolean;
}

interface Hop {
  sentence: string;
  page: RetrievedPage;
  said: AskedTerm[];
}

interface Candidate {
  page: RetrievedPage;
  /** The bridge this page was reached by: its sentence must mention it, unless the page is the bridge's own. */
  via: string | null;
  /** The bridge's place among the hop's bridges: its page's subject (0) before the names its sentence writes. */
  rank: number;
}

const weight = (terms: readonly AskedTerm[]) => terms.reduce((s, t) => s + t.weight, 0);

export async function chainAnswer(frame: QuestionFrame, reader: PageReader): Promise<Chain | null> {
  const named = writtenNames(frame.question, questionNames(frame.question, reader));
  const terms = askedTerms(frame.question, named);
  const total = weight(terms);
  if (terms.length < 2 || total === 0) return null;
  let unsaid = terms;
  const used = new Set<number>();
  const hops: Hop[] = [];
  let bridges: string[] = [];
  for (let i = 0; i < MAX_HOPS; i++) {
    const candidates: Candidate[] = i === 0 ? await firstPages(reader, named) : await bridgePages(reader, bridges, unsaid, used, frame.question);
    // The first hop starts from a thing the question names ("… the county where TENEMENT was founded"), when a sentence says one.
    const starts = i === 0 && ruleOn(RULES.chainNamedStart) ? named : null;
    const hop = (starts && starts.length > 0 ? bestHop(reader, candidates, unsaid, frame, used, false, starts) : null) ?? bestHop(reader, candidates, unsaid, frame, used, i > 0);
    if (!hop || (i === 0 && weight(hop.said) < (starts?.length ? NAMED_FIRST_SHARE : FIRST_SHARE) * total)) break;
    hops.push(hop);
    used.add(hop.page.pageId);
    const clause = ruleOn(RULES.chainClause) ? clauseOf(frame.question, terms, hop.said, hop.sentence) : hop.said;
    unsaid = unsaid.filter((t) => !hop.said.includes(t) && !clause.includes(t));
    // A first hop that says all is no chain (one sentence answers); a later hop ends it when little is left.
    if (unsaid.length === 0 || (i > 0 && weight(unsaid) <= DONE_SHARE * total)) break;
    bridges = bridgesOf(hop, frame.question, clause);
    if (bridges.length === 0) break;
  }
  if (hops.length === 0 || (hops.length === 1 && unsaid.length === 0)) return null;
  if (hops.length > 1 && ruleOn(RULES.chainNextSentence)) hops[hops.length - 1] = withNextSentence(reader, hops.at(-1)!, terms, hops);
  return { facts: factsOf(reader, hops), hops: hops.length, complete: hops.length > 1, relationUnsaid: unsaid.some((t) => t.cues.length > 0) };
}

/** The sentence of the candidates that says most unsaid weight (a sentence holding the kind of answer asked first among equals). */
function bestHop(reader: PageReader, candidates: Candidate[], unsaid: AskedTerm[], frame: QuestionFrame, used: Set<number>, later: boolean, starts: WrittenName[] | null = null): Hop | null {
  let best: (Hop & { score: number }) | null = null;
  const top = Math.max(...unsaid.map((t) => t.weight), 0);
  const asked = stemSet(frame.question);
  // "Which COMPANY followed the COMPANY that made X?": the first hop's "company" is the inner one (rule chain.repeated-head).
  const innerHead = !later && ruleOn(RULES.chainRepeatedHead) && unsaid.some((h) => h.head && unsaid.some((t) => !t.head && t.stem === h.stem));
  // A later hop says the wh-word's noun by holding a thing of its kind: "what CITY" by a name, "what YEAR" by a time.
  const typedHead = (t: AskedTerm, sentence: string) => later && t.head === true && (TIME_HEADS.has(t.word) ? holdsAnswerType(sentence, "time", asked) : PLACE_HEADS.has(t.word) ? PLACED.test(sentence) : holdsAnswerType(sentence, "person", asked));
  for (const { page, via, rank } of candidates) {
    if (used.has(page.pageId)) continue;
    const own = via !== null && (ruleOn(RULES.chainNameForms) ? namesPage(via, page.title) : names(via, page.title));
    const sentences = reader.sentences(page);
    sentences.forEach((alone, at) => {
      // A page often names the bridge in one sentence and says the hop in the next ("Andy Murray and Jamie Murray were … The brothers …").
      const before = via !== null && !own && !mentions(alone, via) ? (ruleOn(RULES.chainAdjacentMention) && at > 0 && mentions(sentences[at - 1]!, via) ? sentences[at - 1]! : null) : "";
      if (before === null) return;
      const sentence = before ? `${before} ${alone}` : alone;
      const said = saidOf(alone, page.title);
      const written = starts?.filter((name) => writes(said, name));
      if (written?.length === 0) return;
      const told = unsaid.filter((t) => (says(said, t) && !(innerHead && t.head)) || typedHead(t, alone));
      if (told.length === 0) return;
      const typed = frame.answerType && holdsAnswerType(alone, frame.answerType, new Set()) ? 0.1 * top : 0;
      // Of the names a first hop may start from, the innermost (written last: "the producer of MISTRESS") is likeliest.
      const inner = written ? 1 + INNER_WEIGHT * (Math.max(...written.map((n) => n.to)) / Math.max(...starts!.map((n) => n.to), 1)) : 1;
      const score = (weight(told) + typed) * (own ? OWN_PAGE : 1) * (before ? ADJACENT : 1) * inner * BRIDGE_DISCOUNT ** rank - at * 0.001;
      if (!best || score > best.score) best = { sentence, page, said: told, score };
    });
  }
  return best;
}

/**
 * The things a hop names that the question does not: its page's subject, then the names its sentence writes,
 * nearest to what it says of the question first ("… Lieutenant Governor of SOUTH CAROLINA serving under
 * Governor Johnson Hagood": the state, not the dates at the sentence's start).
 */
function bridgesOf(hop: Hop, question: string, clause: readonly AskedTerm[]): string[] {
  const asked = ` ${plain(question)} `;
  const out: string[] = [];
  const add = (written: string) => {
    const name = written.replace(/[’']s$/, "");
    const p = plain(name);
    if (p.length < 3 || CALENDAR.test(p) || asked.includes(` ${p} `) || out.some((o) => plain(o) === p)) return;
    out.push(name);
  };
  const lower = hop.sentence.toLowerCase();
  const anchors = hop.said.flatMap((t) => [...lower.matchAll(new RegExp(`(?<![\\p{L}])${t.word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`, "gu"))].map((m) => m.index!));
  const distance = (at: number) => (anchors.length ? Math.min(...anchors.map((a) => Math.abs(a - at))) : at);
  const found = namesIn(hop.sentence)
    .map((n) => ({ ...n, name: n.name.replace(/^\p{Lu}[\p{L}-]*-(?:based|born|owned|made)\s+/u, "") }))
    .sort((a, b) => distance(a.at) - distance(b.at));
  // The name a relation of the hop's clause is said of first: "the SINGER of Moon River" is who "performed by" names.
  if (ruleOn(RULES.chainAnswerSpan)) for (const { name } of namedByRelation(hop.sentence, clause, found)) add(name);
  add(hop.page.title.replace(/\s*\([^)]*\)\s*$/, ""));
  // A people's adjective ("an AMERICAN writer") is seldom the thing a chain goes through: after the names.
  const later = ruleOn(RULES.chainNameForms) ? found.filter((n) => isDemonym(n.name)) : [];
  for (const { name } of [...found.filter((n) => !later.includes(n)), ...later]) add(name);
  return out.slice(0, BRIDGES);
}

/** The retriever's best pages, and the pages it finds for each name the question writes (a first hop's page may rank low for the whole question). */
async function firstPages(reader: PageReader, named: WrittenName[]): Promise<Candidate[]> {
  const pages = reader.pages.slice(0, FIRST_PAGES);
  if (ruleOn(RULES.chainNamedStart)) {
    for (const name of named.slice(0, NAMED_SEARCHES)) for (const page of (await reader.search(name.plain)).slice(0, 2)) if (!pages.includes(page)) pages.push(page);
  }
  return pages.map((page) => ({ page, via: null, rank: 0 }));
}

/** The names a question writes: the titles of pages read so far, and its capitalized runs (not its opening question word). */
function questionNames(question: string, reader: PageReader): string[] {
  const titles = reader.titledIn(question).map((p) => bareTitle(p.title));
  const runs = namesIn(question)
    .filter(({ at }) => at > 0)
    .map(({ name }) => name.replace(/^(?:Who|Whom|Whose|What|Which|Where|When|How|Why|Is|Was|Are|Were|Did|Does|Do|In|On|At|Of)\s+/, "").replace(/[’']s$/, ""))
    // A role's acronym before "of" ("the CEO of FleetBoston Financial") asks a relation of the name, it is none of it.
    .map((name) => (ruleOn(RULES.chainOuterOf) ? name.replace(/^\p{Lu}{2,5}\s+of\s+(?=\p{Lu})/u, "") : name));
  return [...new Set([...titles, ...runs])].filter((n) => plain(n).length > 2);
}

/** The names right after a cue of a relation the clause asks ("performed by AUDREY HEPBURN", "starring CLAUDIA CARDINALE"), nearest first; none named by a people's adjective. */
function namedByRelation(sentence: string, clause: readonly AskedTerm[], names: readonly { name: string; at: number }[]): { name: string; at: number }[] {
  const lower = sentence.toLowerCase();
  const cues = clause.flatMap((t) => relationCues(t.word));
  const after: { name: string; at: number; gap: number }[] = [];
  for (const cue of cues) {
    for (const m of lower.matchAll(new RegExp(`(?<![\\p{L}])${cue.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\p{L}])`, "gu"))) {
      const end = m.index! + m[0].length;
      for (const n of names) if (n.at >= end && n.at - end <= CUE_REACH && !isDemonym(n.name.split(" ")[0]!)) after.push({ ...n, gap: n.at - end });
    }
  }
  return after.sort((a, b) => a.gap - b.gap);
}

/** How far after a relation's cue the name it is said of may start (characters): "by the Italian painter Lorenzo Costa". */
const CUE_REACH = 40;

/** Heads a time answers ("what YEAR did …"). */
const TIME_HEADS = new Set(["year", "date", "day", "month", "century", "decade", "time", "period", "span", "years"]);

/** Heads a place answers ("what CITY is … from"), said "in Ostend", "from Leeds". */
const PLACE_HEADS = new Set(["city", "country", "state", "county", "town", "village", "province", "region", "place", "island", "nation"]);
const PLACED = /\b(?:in|at|from|near|of)\s+\p{Lu}/u;

/** Month and day names are capitalized but name no thing a chain goes through. */
const CALENDAR = /^(?:january|february|march|april|may|june|july|august|september|october|november|december|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b/;

/** Pages about the bridges: each one's own page and the retriever's pages for it with what is still unsaid. */
async function bridgePages(reader: PageReader, bridges: string[], unsaid: AskedTerm[], used: Set<number>, question: string): Promise<Candidate[]> {
  const out: Candidate[] = [];
  // The unsaid relations' words as pages say them ("spouse": "married", "wife"): a lexical search finds those, not the question's word.
  const cues = ruleOn(RULES.chainCueSearch) ? unsaid.flatMap((t) => t.cues.filter((c) => !c.includes(" "))).slice(0, CUE_WORDS) : [];
  const words = [...unsaid.map((t) => t.word), ...cues].join(" ");
  for (const [rank, via] of bridges.entries()) {
    const owns = ruleOn(RULES.chainNameForms) ? await reader.pagesOf(via, question) : [await reader.byName(via, question)];
    for (const own of owns) if (own && !used.has(own.pageId)) out.push({ page: own, via, rank });
    for (const page of await reader.search(`${via} ${words}`)) if (!used.has(page.pageId)) out.push({ page, via, rank });
  }
  for (const page of reader.pages) for (const [rank, via] of bridges.entries()) if (!used.has(page.pageId)) out.push({ page, via, rank });
  return out;
}

/**
 * The last hop with the sentence after it on its page, when that one says a term no hop's sentence says (not
 * the wh-word's noun, which a hop says by its kind): "The estimated city population in 2009 was …" then "The
 * population DENSITY was …". The answer is often said a sentence after the one that names the question's words.
 */
function withNextSentence(reader: PageReader, last: Hop, terms: readonly AskedTerm[], hops: readonly Hop[]): Hop {
  const sentences = reader.sentences(last.page);
  const at = sentences.findIndex((s) => last.sentence.endsWith(s));
  const next = at >= 0 ? sentences[at + 1] : undefined;
  if (!next) return last;
  const left = terms.filter((t) => !t.head && t.name === undefined && !hops.some((h) => h.said.includes(t)));
  const said = saidOf(next, last.page.title);
  const told = left.filter((t) => says(said, t));
  return told.length > 0 ? { ...last, sentence: `${last.sentence} ${next}`, said: [...last.said, ...told] } : last;
}

/** The last hop first (after its page's opening when the sentence does not name what the page is about), then the hops before it. */
function factsOf(reader: PageReader, hops: Hop[]): Fact[] {
  const facts: Fact[] = [];
  const last = hops.at(-1)!;
  const opening = reader.sentences(last.page)[0];
  if (opening && opening !== last.sentence && !mentions(last.sentence, bareTitle(last.page.title))) facts.push({ text: opening, page: last.page });
  for (const [k, hop] of [...hops].reverse().entries()) {
    const first = reader.sentences(hop.page)[0];
    // A hop that says its page's subject as "she" or "it" is read after the sentence naming it.
    if (k > 0 && ruleOn(RULES.chainHopOpenings) && first && !hop.sentence.startsWith(first) && !mentions(hop.sentence, bareTitle(hop.page.title)) && !facts.some((f) => f.text === first)) facts.push({ text: first, page: hop.page });
    facts.push({ text: hop.sentence, page: hop.page });
  }
  return facts;
}
