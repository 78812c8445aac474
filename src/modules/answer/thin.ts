// `thin`: the brain cannot answer. Decided from evidence (evidence.ts) against thresholds calibrated on the
// evaluation sets (scripts/eval-clapnq.ts and eval-squad2.ts --dump the features, scripts/eval-calibrate.ts
// searches the thresholds); the generator's own refusal also makes an answer thin (grounded.ts). Raw bm25 is no gate:
// its IDF is ~0 in a brain of a few pages, so it would call every small brain thin.
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
 * Calibrated by scripts/eval-calibrate.ts on ClapNQ dev (300) + SQuAD 2.0 subset (706), lexical retrieval,
 * extractive answers: the most unanswerable→thin while answerable→thin stays ≤ 10% on both sets. All rows:
 * ClapNQ 48.0% / 10.0%, SQuAD 9.4% / 7.3% (unanswerable / answerable thin); searched on one half, measured
 * on the other (mean of both directions): ClapNQ 52.0% / 14.0%, SQuAD 7.3% / 6.7% (halves are small: ±4%).
 */
export const THIN_THRESHOLDS: ThinThresholds = {
  minCoverage: 0.3,
  minOwnCoverage: 0.225,
  minOwnCoverageTyped: 0.45,
  minTypedCoverage: 0.1,
};

/**
 * The gate in front of a model (Ollama): only questions the pages plainly do not touch stop here; on-topic
 * ones go to the model, whose refusal decides (grounded.ts), so the extractive bar above (which has no
 * reader behind it) would only withhold answerable questions from it. Calibrated the same way for at most
 * 2% answerable→thin (scripts/eval-calibrate.ts --max-answerable-thin 0.02): all rows ClapNQ 20.7% / 2.0%,
 * SQuAD 1.3% / 1.6%; held out ClapNQ 18.0% / 1.3%, SQuAD 0.9% / 1.1% (unanswerable / answerable thin).
 */
export const GENERATOR_GATE: ThinThresholds = {
  minCoverage: 0,
  minOwnCoverage: 0.225,
  minOwnCoverageTyped: 0.275,
  minTypedCoverage: 0,
};

export function isThin(f: EvidenceFeatures, t: ThinThresholds = THIN_THRESHOLDS): boolean {
  if (f.pages === 0) return true;
  const minOwn = f.typed ? t.minOwnCoverageTyped : t.minOwnCoverage;
  return f.coverage < t.minCoverage || f.ownCoverage < minOwn || f.typedCoverage < t.minTypedCoverage;
}

/** What a thin answer says, plainly; it carries no citations. */
export const THIN_ANSWER = "I don't know: this brain has no pages that answer this question.";
