// Calibrates the `thin` thresholds (src/modules/answer/thin.ts) on the evidence features dumped by the eval
// scripts: a grid search that keeps answerable→thin at most the goal (10%) on EVERY data set and maximizes
// the mean unanswerable→thin. Even-numbered questions calibrate, odd ones are held out to check the pick.
//   bun scripts/eval-clapnq.ts --dump /tmp/clapnq.json && bun scripts/eval-squad2.ts --dump /tmp/squad.json
//   bun scripts/eval-calibrate.ts /tmp/clapnq.json /tmp/squad.json
import { readFileSync } from "node:fs";
import { isThin, THIN_THRESHOLDS, type ThinThresholds } from "../src/modules/answer/thin";
import type { EvidenceFeatures } from "../src/modules/answer/evidence";

interface Dumped {
  set: string;
  answerable: boolean;
  features: EvidenceFeatures;
}

const MAX_ANSWERABLE_THIN = 0.1;
const rows: Dumped[] = process.argv.slice(2).flatMap((file) => JSON.parse(readFileSync(file, "utf8")));
if (rows.length === 0) throw new Error("usage: bun scripts/eval-calibrate.ts DUMP.json [DUMP.json ...]");
const sets = [...new Set(rows.map((r) => r.set))];
const halves = {
  calibration: rows.filter((_, i) => i % 2 === 0),
  heldOut: rows.filter((_, i) => i % 2 === 1),
};

function rates(t: ThinThresholds, among: Dumped[]) {
  return sets.map((set) => {
    const mine = among.filter((r) => r.set === set);
    const answerable = mine.filter((r) => r.answerable);
    const unanswerable = mine.filter((r) => !r.answerable);
    return {
      set,
      answerableThin: answerable.filter((r) => isThin(r.features, t)).length / Math.max(answerable.length, 1),
      unanswerableThin: unanswerable.filter((r) => isThin(r.features, t)).length / Math.max(unanswerable.length, 1),
    };
  });
}

const steps = (from: number, to: number, step: number) => Array.from({ length: Math.round((to - from) / step) + 1 }, (_, i) => +(from + i * step).toFixed(3));
/** Thresholds that keep answerable→thin ≤ the goal on every set of `among`, maximizing mean unanswerable→thin. */
function search(among: Dumped[]) {
  let best: { t: ThinThresholds; score: number } | null = null;
  for (const minCoverage of steps(0, 0.8, 0.02))
    for (const minOwnCoverage of steps(0, 0.7, 0.05))
      for (const minTypedCoverage of steps(0, 0.7, 0.05)) {
        const t = { minCoverage, minOwnCoverage, minTypedCoverage };
        const r = rates(t, among);
        if (r.some((x) => x.answerableThin > MAX_ANSWERABLE_THIN)) continue;
        const score = r.reduce((sum, x) => sum + x.unanswerableThin, 0) / r.length;
        if (!best || score > best.score + 1e-9) best = { t, score };
      }
  return best;
}

const show = (label: string, t: ThinThresholds) => {
  console.log(`\n${label}: ${JSON.stringify(t)}`);
  for (const [half, among] of Object.entries(halves))
    for (const r of rates(t, among))
      console.log(`  ${half.padEnd(12)} ${r.set.padEnd(8)} unanswerable→thin ${(100 * r.unanswerableThin).toFixed(1)}%   answerable→thin ${(100 * r.answerableThin).toFixed(1)}%`);
};
show("current THIN_THRESHOLDS", THIN_THRESHOLDS);
const onHalf = search(halves.calibration);
if (onHalf) show("best on the calibration half (held-out rows show how it generalizes)", onHalf.t);
// What ships: the same search on every row (the split above only estimates how well it generalizes).
const onAll = search(rows);
if (onAll) show("best on all rows (put this in THIN_THRESHOLDS)", onAll.t);
else console.log("no thresholds keep answerable→thin under the goal");
