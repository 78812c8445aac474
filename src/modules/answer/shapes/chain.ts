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
import type { QuestionFrame } from "../frame";
import { ruleOn, RULES } from "../rules";
import { askedTerms, clauseOf, mentions, saidOf, says, type AskedTerm } from "./chain-terms";
import { bareTitle, names, plain, type PageReader } from "./pages";
import type { Fact } from "./shaped";
import { namesIn } from "./values";

/** MuSiQue-style questions chain up to four single-hop questions. */
const MAX_HOPS = 4;
/** The retrieved pages a first hop is looked for in (the retriever's best). */
const FIRST_PAGES = 5;
/** Names of a hop tried as the bridge to the next, its page's subject first. */
const BRIDGES = 5;
/** A later bridge of a hop counts this much less than the one before it (the page's subject is likeliest). */
const BRIDGE_DISCOUNT = 0.85;
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
  const terms = askedTerms(frame.question);
  const total = weight(terms);
  if (terms.length < 2 || total === 0) return null;
  let unsaid = terms;
  const used = new Set<number>();
  const hops: Hop[] = [];
  let bridges: string[] = [];
  for (let i = 0; i < MAX_HOPS; i++) {
    const candidates: Candidate[] = i === 0 ? reader.pages.slice(0, FIRST_PAGES).map((page) => ({ page, via: null, rank: 0 })) : await bridgePages(reader, bridges, unsaid, used, frame.question);
    const hop = bestHop(reader, candidates, unsaid, frame, used);
    if (!hop || (i === 0 && weight(hop.said) < FIRST_SHARE * total)) break;
    hops.push(hop);
    used.add(hop.page.pageId);
    const clause = ruleOn(RULES.chainClause) ? clauseOf(frame.question, terms, hop.said) : hop.said;
    unsaid = unsaid.filter((t) => !hop.said.includes(t) && !clause.includes(t));
    // A first hop that says all is no chain (one sentence answers); a later hop ends it when little is left.
    if (unsaid.length === 0 || (i > 0 && weight(unsaid) <= DONE_SHARE * total)) break;
    bridges = bridgesOf(hop, frame.question);
    if (bridges.length === 0) break;
  }
  if (hops.length === 0 || (hops.length === 1 && unsaid.length === 0)) return null;
  return { facts: factsOf(reader, hops), hops: hops.length, complete: hops.length > 1, relationUnsaid: unsaid.some((t) => t.cues.length > 0) };
}

/** The sentence of the candidates that says most unsaid weight (a sentence holding the kind of answer asked first among equals). */
function bestHop(reader: PageReader, candidates: Candidate[], unsaid: AskedTerm[], frame: QuestionFrame, used: Set<number>): Hop | null {
  let best: (Hop & { score: number }) | null = null;
  const top = Math.max(...unsaid.map((t) => t.weight), 0);
  for (const { page, via, rank } of candidates) {
    if (used.has(page.pageId)) continue;
    const own = via !== null && names(via, page.title);
    reader.sentences(page).forEach((sentence, at) => {
      if (via !== null && !own && !mentions(sentence, via)) return;
      const said = saidOf(`${sentence} ${page.title}`);
      const told = unsaid.filter((t) => says(said, t));
      if (told.length === 0) return;
      const typed = frame.answerType && holdsAnswerType(sentence, frame.answerType, new Set()) ? 0.1 * top : 0;
      const score = (weight(told) + typed + (own ? 0.05 * top : 0)) * BRIDGE_DISCOUNT ** rank - at * 0.001;
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
function bridgesOf(hop: Hop, question: string): string[] {
  const asked = ` ${plain(question)} `;
  const out: string[] = [];
  const add = (name: string) => {
    const p = plain(name);
    if (p.length < 3 || CALENDAR.test(p) || asked.includes(` ${p} `) || out.some((o) => plain(o) === p)) return;
    out.push(name);
  };
  add(hop.page.title.replace(/\s*\([^)]*\)\s*$/, ""));
  const lower = hop.sentence.toLowerCase();
  const anchors = hop.said.flatMap((t) => [...lower.matchAll(new RegExp(`(?<![\\p{L}])${t.word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`, "gu"))].map((m) => m.index!));
  const distance = (at: number) => (anchors.length ? Math.min(...anchors.map((a) => Math.abs(a - at))) : at);
  for (const { name } of namesIn(hop.sentence).sort((a, b) => distance(a.at) - distance(b.at))) add(name);
  return out.slice(0, BRIDGES);
}

/** Month and day names are capitalized but name no thing a chain goes through. */
const CALENDAR = /^(?:january|february|march|april|may|june|july|august|september|october|november|december|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b/;

/** Pages about the bridges: each one's own page and the retriever's pages for it with what is still unsaid. */
async function bridgePages(reader: PageReader, bridges: string[], unsaid: AskedTerm[], used: Set<number>, question: string): Promise<Candidate[]> {
  const out: Candidate[] = [];
  const words = unsaid.map((t) => t.word).join(" ");
  for (const [rank, via] of bridges.entries()) {
    const own = await reader.byName(via, question);
    if (own && !used.has(own.pageId)) out.push({ page: own, via, rank });
    for (const page of await reader.search(`${via} ${words}`)) if (!used.has(page.pageId)) out.push({ page, via, rank });
  }
  for (const page of reader.pages) for (const [rank, via] of bridges.entries()) if (!used.has(page.pageId)) out.push({ page, via, rank });
  return out;
}

/** The last hop first (after its page's opening when the sentence does not name what the page is about), then the hops before it. */
function factsOf(reader: PageReader, hops: Hop[]): Fact[] {
  const facts: Fact[] = [];
  const last = hops.at(-1)!;
  const opening = reader.sentences(last.page)[0];
  if (opening && opening !== last.sentence && !mentions(last.sentence, bareTitle(last.page.title))) facts.push({ text: opening, page: last.page });
  for (const hop of [...hops].reverse()) facts.push({ text: hop.sentence, page: hop.page });
  return facts;
}
