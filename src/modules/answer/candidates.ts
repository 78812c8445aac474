// Evidence features the thin model does not weigh, computed only for scripts/eval-calibrate.ts (an ask
// skips them): what separates "the pages are about the question's topic" from "a sentence answers what it
// asks", measured against the shipped feature by cross-validation on the calibration half (README "Thin").
import type { RetrievedPage } from "../../retrieval";
import type { ScoredSentence } from "./evidence";
import { sentencesOf, stemSet } from "./sentences";

export interface CandidateFeatures {
  /** Share of the question (rarity-weighted) the best page's title names, 0..1. */
  titleShare: number;
  /** Share of the question that is the best page's topic: named by its title or by many of its sentences, 0..1. */
  topicShare: number;
  /**
   * rankedOwnCoverage over the asked-for part only: the terms that are not the sentence's page topic (its
   * title, or words named in many of its sentences), 0..1; the whole question when the topic is all of it.
   */
  askedRankedOwnCoverage: number;
  /** rankedOwnCoverage with every question term counted the same (common words as much as names), 0..1. */
  flatRankedOwnCoverage: number;
  /** rankedOwnCoverage among sentences holding the asked-for kind of answer (= rankedOwnCoverage when none is asked). */
  typedRankedOwnCoverage: number;
  /** Retrieval score of the second page (1 = as good as the best; 0 when there is one page): the margin. */
  secondPageScore: number;
}

export const NO_CANDIDATES: CandidateFeatures = {
  titleShare: 0,
  topicShare: 0,
  askedRankedOwnCoverage: 0,
  flatRankedOwnCoverage: 0,
  typedRankedOwnCoverage: 0,
  secondPageScore: 0,
};

/** A word named in at least this many sentences, and this share of them, is the page's topic. */
const TOPIC_SENTENCES = 3;
const TOPIC_SHARE = 0.2;

const clamp = (x: number) => Math.min(1, Math.max(0, x));

/** `stems` and `weights` are the question's terms; `sentences` are the weighed ones, any order. */
export function candidateFeatures(stems: string[], weights: number[], sentences: ScoredSentence[], pages: RetrievedPage[]): CandidateFeatures {
  if (sentences.length === 0 || stems.length === 0) return { ...NO_CANDIDATES };
  const share = (has: (stem: string) => boolean, ws: number[]) => {
    const total = ws.reduce((a, b) => a + b, 0);
    return total > 0 ? stems.reduce((sum, s, i) => sum + (has(s) ? ws[i]! : 0), 0) / total : 0;
  };
  const topics = new Map<RetrievedPage, Set<string>>();
  for (const page of pages) {
    const topic = stemSet(page.title);
    const all = sentencesOf(page.markdown);
    for (const s of stems) {
      const naming = all.filter((sentence) => sentence.stems.has(s)).length;
      if (naming >= TOPIC_SENTENCES && naming >= TOPIC_SHARE * all.length) topic.add(s);
    }
    topics.set(page, topic);
  }
  const flat = stems.map((_, i) => (weights[i]! > 0 ? 1 : 0));
  const out = { ...NO_CANDIDATES };
  for (const sentence of sentences) {
    const rank = clamp(sentence.page.score);
    const words = stemSet(sentence.text);
    const topic = topics.get(sentence.page) ?? new Set<string>();
    const asked = weights.map((w, i) => (topic.has(stems[i]!) ? 0 : w));
    const askedCoverage = asked.some((w) => w > 0) ? share((s) => words.has(s), asked) : sentence.ownCoverage;
    out.askedRankedOwnCoverage = Math.max(out.askedRankedOwnCoverage, rank * askedCoverage);
    out.flatRankedOwnCoverage = Math.max(out.flatRankedOwnCoverage, rank * share((s) => words.has(s), flat));
    if (sentence.typeFound !== false) out.typedRankedOwnCoverage = Math.max(out.typedRankedOwnCoverage, rank * sentence.ownCoverage);
  }
  const top = pages[0];
  if (top) {
    out.titleShare = share((s) => stemSet(top.title).has(s), weights);
    out.topicShare = share((s) => topics.get(top)!.has(s), weights);
  }
  out.secondPageScore = clamp(pages[1]?.score ?? 0);
  return out;
}
