// `thin`: the brain cannot answer. Decided from evidence (evidence.ts) by a small logistic model whose
// weights are fitted on the calibration half of the evaluation sets (scripts/eval-clapnq.ts and
// eval-squad2.ts --dump the retrievals, scripts/eval-calibrate.ts recomputes the features, chooses them by
// cross-validation inside the calibration half and fits the weights); the generator's own refusal also
// makes an answer thin (grounded.ts). Every feature is a share of the question (0..1), weighed by
// general-English rarity (term-weights.ts), never a raw score of the brain, so the same model holds at
// every brain size.
import type { EvidenceFeatures } from "./evidence";

/** The evidence numbers a thin model may weigh. */
export type ThinFeature = {
  [K in keyof EvidenceFeatures]: EvidenceFeatures[K] extends number ? K : never;
}[keyof EvidenceFeatures];

/** Thin when `bias + Σ weight · feature > 0` (the log-odds of "the pages do not answer", cut folded in). */
export interface ThinModel {
  bias: number;
  weights: Partial<Record<ThinFeature, number>>;
}

/**
 * The extractive answerer's bar: thin when no sentence covers enough of the question by its own words,
 * each sentence counted at its page's retrieval score (1 for the best page, less for the others), i.e.
 * rankedOwnCoverage < 0.309 (refitted once scores were normalized over the results only: retriever.ts
 * bestAsOne). Chosen by scripts/eval-calibrate.ts: of 23 feature sets (best sentence with
 * or without its title, the best page as a whole, a sentence with its neighbours, the question's words
 * beyond the page title, term pairs, answer-type sentences, the heaviest term left open, the best one or
 * two pages' sentences, and combinations), compared by 5-fold cross-validation inside the calibration
 * half (ClapNQ dev at 10/50/300 passages per brain, SQuAD 2.0 subset at 10/50/83), it catches the most
 * unanswerable questions at the same answerable cost among those that keep SQuAD's answerable→thin low
 * and do not hang on the best page alone. A sentence of a lower-ranked page counts for less: in a large
 * brain the fourth or fifth page often matches some question words by chance (unanswerable questions'
 * best own coverage rose 0.34 → 0.41 from 10 to 300 passages, answerable ones' stayed at 0.61). The cut
 * keeps answerable→thin at every ClapNQ size of the calibration half ≤ 8% less one standard error
 * (4.7%). Figures per size and half: README "Thin".
 * Weighed on completeRankedOwnCoverage, the same share except that a sentence holding every question term
 * its page's title and headings do not name counts with them: a question naming a page's subject ("What
 * caused incident 2291?" of "Root cause: the kernel upgrade …" on "Incident 2291 postmortem") was thin. The
 * evaluation sets cannot tell the two apart (the same out-of-fold figures to the digit; with these
 * constants every figure of both halves the same), so the bar is unchanged there. Long runs of numbers and
 * symbols (an infobox flattened into a passage) are not weighed: evidence.ts isProse.
 * A sentence off the question's subject counts 0.3 less when a sentence on it was retrieved too (on it: its
 * page's title or headings name one of the question's heavier words, evidence.ts onSubject): in a large brain
 * a page on another subject matches a few words of a question its own page cannot answer ("who gained fame
 * for her actions during the american civil war" quoted "Chinese fire drill"'s "… used by Americans during the
 * Korean War …"). Calibration half at the same bar: ClapNQ unanswerable→thin 62.3 / 57.6 / 50.6 → 62.8 / 59.7 /
 * 54.5% at 10 / 50 / 300 passages, answerable→thin 3.0 → 3.0 / 3.5 / 4.5% (one question, which was answered
 * from Wonder Woman's page), out of fold at the goal 63.1 → 64.6%. Compared, with any title word of the
 * question as its subject: 0.2 caught fewer (51.9% at 300), 0.3 a little more than shipped (63.2 / 61.5 /
 * 54.5%), 0.4 one question more at 300, 0.5 stopped answerable ones (7.6% at 300); but with any word a
 * handbook's section "Home office" was on the subject of "Can I take a taxi home at 23:00?" and the answer,
 * "Taxis are fine after 22:00", off it (thin). SQuAD (a brain's pages share titles) unchanged.
 */
export const THIN_MODEL: ThinModel = {
  bias: 1.1021,
  weights: { completeRankedOwnCoverage: -3.5662 },
};

/**
 * The gate in front of a model (Ollama): only questions the pages plainly do not touch stop here; on-topic
 * ones go to the model, whose refusal decides (grounded.ts), so the extractive bar above (which has no
 * reader behind it) would only withhold answerable questions from it. Thin when the best sentence (with
 * its title) covers less than half the least any answerable question of the calibration half got (0.252, refitted after the search-text index):
 * scripts/eval-calibrate.ts --gate. The margin is for the tail one half cannot show: the bar at 0.2 (no
 * margin) stopped 2.4% of the held-out answerable questions at 10 passages.
 */
export const GENERATOR_GATE: ThinModel = {
  bias: 0.126,
  weights: { coverage: -1 },
};

export function thinScore(f: EvidenceFeatures, m: ThinModel): number {
  let score = m.bias;
  for (const [name, weight] of Object.entries(m.weights) as [ThinFeature, number][]) score += weight * f[name];
  return score;
}

export function isThin(f: EvidenceFeatures, m: ThinModel = THIN_MODEL): boolean {
  return f.pages === 0 || thinScore(f, m) > 0;
}

/** What a thin answer says, plainly; it carries no citations. */
export const THIN_ANSWER = "I don't know: this brain has no pages that answer this question.";
