// The evidence's shapes: a scored sentence, what the pages say about a question, and the numbers `thin` is
// decided on (evidence.ts computes them).
import type { RetrievedPage } from "../../retrieval";
import type { AnswerType } from "./answer-type";
import type { CandidateFeatures } from "./candidates";
import type { Words } from "./sentences";

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
