// `thin`: the brain cannot answer. Decided from evidence (evidence.ts) against thresholds calibrated on the
// evaluation sets (scripts/eval-clapnq.ts and eval-squad2.ts --dump the features, scripts/eval-calibrate.ts
// searches the thresholds); the generator's own refusal also makes an answer thin (grounded.ts). Raw bm25 is no gate:
// its IDF is ~0 in a brain of a few pages, so it would call every small brain thin; the coverage features
// weigh terms by general-English rarity (term-weights.ts) so the same bar holds at every brain size.
import type { EvidenceFeatures } from "./evidence";

export interface ThinThresholds {
  /** Best sentence (with its page title) must cover this IDF-weighted share of the question. */
  minCoverage: number;
  /** The best sentence's own words (without its title) must cover this share... */
  minOwnCoverage: number;
  /**
   * ... or this share when the question asks for a kind of answer (who, when, where, how many). Measured:
   * unanswerable questions of that form often match only the topic words (the page is about the subject but
   * says nothing of the asked-for detail), so one sentence must match more of the question to count.
   */
  minOwnCoverageTyped: number;
  /** ... and a sentence holding the asked-for kind of answer (name, time, quantity) must cover this much. */
  minTypedCoverage: number;
}

/**
 * Calibrated by scripts/eval-calibrate.ts on the calibration half of the size sweeps (ClapNQ dev at 10, 50
 * and 300 passages per brain, SQuAD 2.0 subset at 10, 50 and 83 paragraphs; lexical retrieval, extractive
 * answers): the most unanswerable→thin while answerable→thin stays ≤ 8% at every size of both sets. Held-out
 * half, ClapNQ 10/50/300: unanswerable→thin 50.7/42.5/35.6%, answerable→thin 11.5/9.1/9.5%; SQuAD 10/50/83:
 * 3.8/1.8/2.5%, 0.5/0.8/1.5% (before term-weights.ts the same held-out rows gave ClapNQ answerable→thin
 * 38/25/12%: the bar no longer moves with the brain's size).
 */
export const THIN_THRESHOLDS: ThinThresholds = {
  minCoverage: 0.35,
  minOwnCoverage: 0.275,
  minOwnCoverageTyped: 0.275,
  minTypedCoverage: 0,
};

/**
 * The gate in front of a model (Ollama): only questions the pages plainly do not touch stop here; on-topic
 * ones go to the model, whose refusal decides (grounded.ts), so the extractive bar above (which has no
 * reader behind it) would only withhold answerable questions from it. Calibrated the same way with no
 * answerable question stopped on the calibration half (scripts/eval-calibrate.ts --gate
 * --max-answerable-thin 0); held out, answerable stopped: ClapNQ 10/50/300 2.4/2.0/0.0%, SQuAD
 * 0.4/0.6/0.5% (before: ClapNQ 15.1/8.7/2.4%).
 */
export const GENERATOR_GATE: ThinThresholds = {
  minCoverage: 0.2,
  minOwnCoverage: 0,
  minOwnCoverageTyped: 0,
  minTypedCoverage: 0,
};

export function isThin(f: EvidenceFeatures, t: ThinThresholds = THIN_THRESHOLDS): boolean {
  if (f.pages === 0) return true;
  const minOwn = f.typed ? t.minOwnCoverageTyped : t.minOwnCoverage;
  return f.coverage < t.minCoverage || f.ownCoverage < minOwn || f.typedCoverage < t.minTypedCoverage;
}

/** What a thin answer says, plainly; it carries no citations. */
export const THIN_ANSWER = "I don't know: this brain has no pages that answer this question.";
