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
import { bareTitle, nameForms, names, namesPage, plain, type PageReader } from "./pages";
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
/** First hops tried when the best one's walk does not say all (rule chain.backtrack). */
const FIRST_TRIES = 5;
/** Later hops tried at each step of a walk. */
const LATER_TRIES = 1;

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
  /** Whether only the bridge's whole name mentions it (a thing's title, not a person's: "Night Harbour" is not "Harbour"). */
  whole: boolean;
  /** The bridge's place among the hop's bridges: its page's subject (0) before the names its sentence writes. */
  rank: number;
}

const weight = (terms: readonly AskedTerm[]) => terms.reduce((s, t) => s + t.weight, 0);

export async function chainAnswer(frame: QuestionFrame, reader: PageReader): Promise<Chain | null> {
  const named = writtenNames(frame.question, questionNames(frame.question, reader));
  const terms = askedTerms(frame.question, named);
  const total = weight(terms);
  if (terms.length < 2 || total === 0) return null;
  const walked = await walk({ frame, reader, named, terms, total }, { hops: [], unsaid: terms, used: new Set() }, []);
  const { hops, unsaid } = walked;
  if (hops.length === 0 || (hops.length === 1 && unsaid.length === 0)) return null;
  if (hops.length > 1 && ruleOn(RULES.chainNextSentence)) hops[hops.length - 1] = withNextSentence(reader, hops.at(-1)!, terms, hops);
  return { facts: factsOf(reader, hops), hops: hops.length, complete: hops.length > 1, relationUnsaid: unsaid.some((t) => t.cues.length > 0) };
}

interface Walk {
  hops: Hop[];
  unsaid: AskedTerm[];
  used: Set<number>;
}

interface Asked {
  frame: QuestionFrame;
  reader: PageReader;
  named: WrittenName[];
  terms: AskedTerm[];
  total: number;
}

/** A walk is finished when it says (nearly) all the question asks, in more than one hop. */
const finished = (w: Walk, total: number) => w.hops.length > 1 && (w.unsaid.length === 0 || weight(w.unsaid) <= DONE_SHARE * total);

/**
 * The chain walked from `at`: each hop is the sentence saying most of what is unsaid; when the best first
 * hop's walk goes no further than itself, the next best first hops are tried (rule chain.backtrack): a first
 * hop whose bridges lead to no page saying the rest ("the 1964 film Mary Poppins … stars Emily Blunt" of the
 * sequel's page) is the wrong one. With none going further, the best admissible one's walk is kept.
 */
async function walk(asked: Asked, at: Walk, bridges: Bridge[]): Promise<Walk> {
  const { frame, reader, named, terms, total } = asked;
  const i = at.hops.length;
  if (i >= MAX_HOPS) return at;
  const candidates: Candidate[] = i === 0 ? await firstPages(reader, named) : await bridgePages(reader, bridges, at.unsaid, at.used, frame.question);
  const offered = hopOptions(asked, candidates, at, i);
  const options = offered.options.slice(0, ruleOn(RULES.chainBacktrack) ? (i === 0 ? FIRST_TRIES : LATER_TRIES) : 1);
  let kept: Walk | null = null;
  for (const [k, hop] of options.entries()) {
    const clause = ruleOn(RULES.chainClause) ? clauseOf(frame.question, terms, hop.said, hop.sentence) : hop.said;
    const next: Walk = { hops: [...at.hops, hop], unsaid: at.unsaid.filter((t) => !hop.said.includes(t) && !clause.includes(t)), used: new Set([...at.used, hop.page.pageId]) };
    // A first hop that says all is no chain (one sentence answers); a later hop ends it when little is left.
    const done = next.unsaid.length === 0 || (i > 0 && weight(next.unsaid) <= DONE_SHARE * total);
    const onward = done ? [] : bridgesOf(reader, hop, frame.question, clause);
    const result = onward.length > 0 ? await walk(asked, next, onward) : next;
    // A walk from another thing than the one the question names is no answer of it ("the company that built
    // the SKERRY LIGHTHOUSE" is not answered by a chain from another bridge's builder): a first hop tried after
    // the best one must itself write a name the question writes (a walk that only ends on the named thing's
    // page runs backwards), and any walk must when some first hop does.
    if (i === 0 && ruleOn(RULES.chainBacktrack) && (offered.named || (k > 0 && named.length > 0)) && !writesAName(k > 0 ? result.hops.slice(0, 1) : result.hops, named)) continue;
    // Only a first hop that leads nowhere is given up: a walk of two hops or more is a chain (complete).
    if (finished(result, total) || (i === 0 && (done || result.hops.length > 1))) return result;
    kept ??= result;
  }
  return kept ?? at;
}

/** The hops the candidates offer, best first, one per page; a first hop must say enough of the question to be no chance match. */
function hopOptions({ frame, reader, named, total }: Asked, candidates: Candidate[], at: Walk, i: number): { options: Hop[]; named: boolean } {
  // The first hop starts from a thing the question names ("… the county where TENEMENT was founded"), when a sentence says one.
  const starts = i === 0 && ruleOn(RULES.chainNamedStart) && named.length > 0 ? named : null;
  const fromNames = starts ? rankedHops(reader, candidates, at.unsaid, frame, at.used, false, starts).filter((h) => weight(h.said) >= NAMED_FIRST_SHARE * total) : [];
  const any = rankedHops(reader, candidates, at.unsaid, frame, at.used, i > 0).filter((h) => i > 0 || weight(h.said) >= (starts ? NAMED_FIRST_SHARE : FIRST_SHARE) * total);
  // A first hop saying a name the question writes is tried before any other.
  const out: Hop[] = [];
  for (const hop of [...fromNames, ...any]) if (!out.some((h) => h.page.pageId === hop.page.pageId)) out.push(hop);
  return { options: out, named: fromNames.length > 0 };
}

/** Whether some of the hops writes one of the question's names. */
const writesAName = (hops: readonly Hop[], named: readonly WrittenName[]) => hops.some((h) => named.some((n) => writes(saidOf(h.sentence, h.page.title), n)));

/** Each candidate page's sentence that says most unsaid weight, best first (a sentence holding the kind of answer asked first among equals). */
function rankedHops(reader: PageReader, candidates: Candidate[], unsaid: AskedTerm[], frame: QuestionFrame, used: Set<number>, later: boolean, starts: WrittenName[] | null = null): Hop[] {
  const best = new Map<number, Hop & { score: number }>();
  const top = Math.max(...unsaid.map((t) => t.weight), 0);
  const asked = stemSet(frame.question);
  // "Which COMPANY followed the COMPANY that made X?": the first hop's "company" is the inner one (rule chain.repeated-head).
  const innerHead = !later && ruleOn(RULES.chainRepeatedHead) && unsaid.some((h) => h.head && unsaid.some((t) => !t.head && t.stem === h.stem));
  // A later hop says the wh-word's noun by holding a thing of its kind: "what CITY" by a name, "what YEAR" by a time.
  const typedHead = (t: AskedTerm, sentence: string) => later && t.head === true && (TIME_HEADS.has(t.word) ? holdsAnswerType(sentence, "time", asked) : PLACE_HEADS.has(t.word) ? PLACED.test(sentence) : holdsAnswerType(sentence, "person", asked));
  for (const { page, via, whole, rank } of candidates) {
    if (used.has(page.pageId)) continue;
    const own = via !== null && (ruleOn(RULES.chainNameForms) ? namesPage(via, page.title) : names(via, page.title));
    const sentences = reader.sentences(page);
    sentences.forEach((alone, at) => {
      // A page often names the bridge in one sentence and says the hop in the next ("Andy Murray and Jamie Murray were … The brothers …").
      const named = (text: string) => (whole ? mentionsWhole(text, via!) : mentions(text, via!));
      const before = via !== null && !own && !named(alone) ? (ruleOn(RULES.chainAdjacentMention) && at > 0 && named(sentences[at - 1]!) ? sentences[at - 1]! : null) : "";
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
      const kept = best.get(page.pageId);
      if (!kept || score > kept.score) best.set(page.pageId, { sentence, page, said: told, score });
    });
  }
  return [...best.values()].sort((a, b) => b.score - a.score);
}

/**
 * The things a hop names that the question does not: its page's subject, then the names its sentence writes,
 * nearest to what it says of the question first ("… Lieutenant Governor of SOUTH CAROLINA serving under
 * Governor Johnson Hagood": the state, not the dates at the sentence's start).
 */
function bridgesOf(reader: PageReader, hop: Hop, question: string, clause: readonly AskedTerm[]): Bridge[] {
  const asked = ` ${plain(question)} `;
  const out: Bridge[] = [];
  const add = (written: string, whole = false) => {
    const name = written.replace(/[’']s$/, "");
    const p = plain(name);
    if (p.length < 3 || CALENDAR.test(p) || asked.includes(` ${p} `) || out.some((o) => plain(o.name) === p)) return;
    out.push({ name, whole });
  };
  const lower = hop.sentence.toLowerCase();
  const anchors = hop.said.flatMap((t) => [...lower.matchAll(new RegExp(`(?<![\\p{L}])${t.word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`, "gu"))].map((m) => m.index!));
  const distance = (at: number) => (anchors.length ? Math.min(...anchors.map((a) => Math.abs(a - at))) : at);
  const found = namesIn(hop.sentence)
    .map((n) => ({ ...n, name: n.name.replace(/^\p{Lu}[\p{L}-]*-(?:based|born|owned|made)\s+/u, "") }))
    .sort((a, b) => distance(a.at) - distance(b.at));
  // The name a relation of the hop's clause is said of first: "the SINGER of Moon River" is who "performed by" names.
  if (ruleOn(RULES.chainAnswerSpan)) for (const { name } of namedByRelation(hop.sentence, clause, found)) add(name);
  add(hop.page.title.replace(/\s*\([^)]*\)\s*$/, ""), ruleOn(RULES.chainBacktrack) && !aboutPerson(reader, hop.page));
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
  return pages.map((page) => ({ page, via: null, whole: false, rank: 0 }));
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

/** A name a hop leads on by; a thing's title is mentioned only whole. */
interface Bridge {
  name: string;
  whole: boolean;
}

/** Whether a page is about a person: its opening gives a birth or a life's span ("(born 3 May 1961)", "(1852–1930)"). */
const aboutPerson = (reader: PageReader, page: RetrievedPage) => LIFE.test(reader.sentences(page)[0] ?? "");
const LIFE = /\((?:[^()]*?\b(?:born|b\.|c\.)\s|[^()]*?\d{3,4}\s*[–-]\s*\d{3,4}\s*\))/;

/** Whether a text writes a name whole, in one of its forms. */
const mentionsWhole = (text: string, name: string) => nameForms(name).some((form) => ` ${plain(text)} `.includes(` ${plain(form)} `));

/** Heads a time answers ("what YEAR did …"). */
const TIME_HEADS = new Set(["year", "date", "day", "month", "century", "decade", "time", "period", "span", "years"]);

/** Heads a place answers ("what CITY is … from"), said "in Ostend", "from Leeds". */
const PLACE_HEADS = new Set(["city", "country", "state", "county", "town", "village", "province", "region", "place", "island", "nation"]);
const PLACED = /\b(?:in|at|from|near|of)\s+\p{Lu}/u;

/** Month and day names are capitalized but name no thing a chain goes through. */
const CALENDAR = /^(?:january|february|march|april|may|june|july|august|september|october|november|december|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b/;

/** Pages about the bridges: each one's own page and the retriever's pages for it with what is still unsaid. */
async function bridgePages(reader: PageReader, bridges: Bridge[], unsaid: AskedTerm[], used: Set<number>, question: string): Promise<Candidate[]> {
  const out: Candidate[] = [];
  // The unsaid relations' words as pages say them ("spouse": "married", "wife"): a lexical search finds those, not the question's word.
  const cues = ruleOn(RULES.chainCueSearch) ? unsaid.flatMap((t) => t.cues.filter((c) => !c.includes(" "))).slice(0, CUE_WORDS) : [];
  const words = [...unsaid.map((t) => t.word), ...cues].join(" ");
  for (const [rank, { name: via, whole }] of bridges.entries()) {
    const owns = ruleOn(RULES.chainNameForms) ? await reader.pagesOf(via, question) : [await reader.byName(via, question)];
    for (const own of owns) if (own && !used.has(own.pageId)) out.push({ page: own, via, whole, rank });
    for (const page of await reader.search(`${via} ${words}`)) if (!used.has(page.pageId)) out.push({ page, via, whole, rank });
  }
  for (const page of reader.pages) for (const [rank, { name: via, whole }] of bridges.entries()) if (!used.has(page.pageId)) out.push({ page, via, whole, rank });
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
