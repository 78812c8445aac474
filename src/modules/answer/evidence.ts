// What the retrieved pages say about a question, as numbers: how much of the question (IDF-weighted) the
// best sentences cover, and whether they hold the kind of thing asked for (a name, a time, a quantity).
// The extractive answer picks its sentences from here and `thin` is decided from it (thin.ts).
import type { Retrieval, RetrievedPage, TermStats } from "../../retrieval";
import { stem, sentencesOf, stemSet } from "./sentences";
import { termWeights } from "./term-weights";

/** Pages whose sentences are weighed. */
const EVIDENCE_PAGES = 5;

export type AnswerType = "person" | "place" | "time" | "quantity";

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
  /** Whether the sentence holds the asked-for kind of answer; null when the question asks for no kind. */
  typeFound: boolean | null;
  /** Ranking score for extraction. */
  score: number;
}

export interface Evidence {
  terms: string[];
  expectedType: AnswerType | null;
  /** Best first. */
  sentences: ScoredSentence[];
  features: EvidenceFeatures;
}

/** The numbers `thin` is decided on; also printed by the evaluation scripts for calibration. */
export interface EvidenceFeatures {
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
}

export function weighEvidence(question: string, retrieval: Retrieval, stats: TermStats): Evidence {
  const terms = retrieval.terms;
  const stems = terms.map(stem);
  const weights = termWeights(terms, stats);
  const total = weights.reduce((a, b) => a + b, 0);
  const expectedType = expectedAnswerType(question);
  const questionWords = stemSet(question);
  // The wh-phrase's own words ("how MANY", "how TALL", "what YEAR") are answered by a sentence holding the
  // asked-for kind of thing, not by the word itself.
  const cues = expectedType ? cueWords(question) : new Set<string>();
  const isCue = stems.map((s) => cues.has(s));
  const coverageOf = (words: Set<string>, typeFound = false) =>
    total > 0 ? stems.reduce((sum, s, i) => sum + (words.has(s) || (typeFound && isCue[i]) ? weights[i]! : 0), 0) / total : 0;

  const sentences: ScoredSentence[] = [];
  let pageCoverage = 0;
  retrieval.pages.slice(0, EVIDENCE_PAGES).forEach((page, pageRank) => {
    const titleStems = stemSet(page.title);
    const all = sentencesOf(page.markdown);
    const pageStems = new Set([...titleStems, ...all.flatMap((s) => [...s.stems])]);
    if (pageRank === 0) pageCoverage = coverageOf(pageStems);
    all.forEach((sentence, index) => {
      const typeFound = expectedType ? holdsAnswerType(sentence.text, expectedType, questionWords) : null;
      const ownCoverage = coverageOf(sentence.stems, typeFound === true);
      const coverage = coverageOf(new Set([...sentence.stems, ...titleStems]), typeFound === true);
      const score = coverage + 0.25 * ownCoverage + 0.1 * page.score + (typeFound ? 0.1 : 0);
      sentences.push({ page, pageRank, index, text: sentence.text, whole: sentence.whole, coverage, ownCoverage, typeFound, score });
    });
  });
  sentences.sort((a, b) => b.score - a.score || a.pageRank - b.pageRank || a.index - b.index);

  const top = retrieval.pages[0];
  const best = (pick: (s: ScoredSentence) => number, among = sentences) => among.reduce((m, s) => Math.max(m, pick(s)), 0);
  return {
    terms,
    expectedType,
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
    },
  };
}

/** The kind of answer a question asks for, from its wh-words (English; other languages ask for no kind). */
export function expectedAnswerType(question: string): AnswerType | null {
  const q = question.toLowerCase();
  if (/\bhow (many|much|long|old|far|big|tall|high|often|large|fast|deep)\b|\bwhat (percentage|number|amount)\b/.test(q)) return "quantity";
  if (/\bwhen\b|\bwhat (year|date|day|month|time|century|decade)\b|\bwhich (year|century)\b/.test(q)) return "time";
  if (/\b(who|whom|whose)\b/.test(q)) return "person";
  if (/\bwhere\b/.test(q)) return "place";
  return null;
}

/** The words of the question's wh-phrase that name the kind of answer (stems). */
function cueWords(question: string): Set<string> {
  const q = question.toLowerCase();
  const found = [...q.matchAll(/\bhow (many|much|long|old|far|big|tall|high|often|large|fast|deep|wide|heavy)\b|\bwhat (percentage|number|amount|year|date|day|month|time|century|decade)\b|\bwhich (year|century)\b/g)];
  return new Set(found.map((m) => stem(m[1] ?? m[2] ?? m[3]!)));
}

const MONTHS = /\b(january|february|march|april|may|june|july|august|september|october|november|december|spring|summer|autumn|fall|winter)\b/i;
const NUMBER_WORDS = /\b(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|hundred|thousand|million|billion|dozen|half|several|once|twice|every|daily|weekly|monthly|yearly|annually|times)\b/i;

function holdsAnswerType(text: string, type: AnswerType, questionStems: Set<string>): boolean {
  switch (type) {
    case "time":
      return /\b\d{3,4}s?\b/.test(text) || MONTHS.test(text) || /\b(century|centuries|decade|bc|ad|ce)\b/i.test(text);
    case "quantity":
      return /\d/.test(text) || NUMBER_WORDS.test(text);
    case "person":
    case "place":
      // A capitalized word the question did not already name (not the sentence's first word).
      return (text.match(/(?<=\s)\p{Lu}[\p{L}'’.-]*/gu) ?? []).some((w) => !questionStems.has(stem(w.toLowerCase().replace(/[’'.-]+$/, ""))));
  }
}
