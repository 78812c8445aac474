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
 * each sentence counted at its page's retrieval score (1 for the best page, less for the others), because
 * in a large brain a far-down page often matches some question words by chance. A sentence holding every
 * question term its page's title and headings do not name counts with them, so a question naming a page's
 * subject is answered. A sentence off the question's subject counts less when one on it was retrieved too
 * (evidence.ts onSubject). The feature and its weights were chosen by cross-validation inside the
 * calibration half (scripts/eval-calibrate.ts); the figures are in docs/benchmarks.md.
 */
export const THIN_MODEL: ThinModel = {
  bias: 1.1021,
  weights: { completeRankedOwnCoverage: -3.5662 },
};

/**
 * The gate in front of a model (Ollama): only questions the pages plainly do not touch stop here; on-topic
 * ones go to the model, whose refusal decides (grounded.ts), so the extractive bar above (which has no
 * reader behind it) would only withhold answerable questions from it. The cut sits below the least any
 * answerable question of the calibration half got, with a margin for the tail one half cannot show
 * (scripts/eval-calibrate.ts --gate).
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
