// Calibrates the `thin` bars (src/modules/answer/thin.ts) on the evidence dumped by the size sweeps of the
// eval scripts. Features are recomputed from the dumped retrievals with the current evidence code (and the
// extractive answer re-composed, for the gold-cited figure), so a change to evidence.ts is measured without
// re-running the servers. A grid search on the CALIBRATION half keeps answerable→thin at most the goal at
// EVERY brain size of every set and maximizes the mean unanswerable→thin over sizes (ClapNQ counts, SQuAD's
// adversarial questions break ties); the figures are then printed for the HELD-OUT half.
//   bun scripts/eval-clapnq.ts --dump /tmp/clapnq.json && bun scripts/eval-squad2.ts --dump /tmp/squad.json
//   bun scripts/eval-calibrate.ts [--max-answerable-thin 0.08] [--gate] /tmp/clapnq.json /tmp/squad.json
// --gate calibrates the looser gate in front of a model instead (use --max-answerable-thin 0.02).
import { readFileSync } from "node:fs";
import { weighEvidence, type EvidenceFeatures } from "../src/modules/answer/evidence";
import { extractiveAnswer } from "../src/modules/answer/extractive";
import { GENERATOR_GATE, isThin, THIN_THRESHOLDS, type ThinThresholds } from "../src/modules/answer/thin";

interface Dumped {
  set: string;
  size: number;
  half: "calibration" | "held-out";
  question: string;
  answerable: boolean;
  goldSource?: string;
  features: EvidenceFeatures;
  retrieval: any;
  /** Sources the re-composed extractive answer cites. */
  cited: string[];
}

const args = [...process.argv.slice(2)];
const take = (name: string) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args.splice(at, 2)[1] : undefined;
};
const gate = args.includes("--gate");
if (gate) args.splice(args.indexOf("--gate"), 1);
const MAX_ANSWERABLE_THIN = Number(take("max-answerable-thin") ?? (gate ? 0.02 : 0.08));
const rows: Dumped[] = args.flatMap((file) => JSON.parse(readFileSync(file, "utf8")));
if (rows.length === 0) throw new Error("usage: bun scripts/eval-calibrate.ts DUMP.json [DUMP.json ...]");
const started = Date.now();
for (const row of rows) {
  const stats = { pageCount: row.retrieval.stats.pageCount, documentFrequency: new Map<string, number>(Object.entries(row.retrieval.stats.documentFrequency)) };
  const evidence = weighEvidence(row.question, { ...row.retrieval, stats }, stats);
  row.features = evidence.features;
  const answer = extractiveAnswer(evidence, (page) => page.sourceId);
  row.cited = [...answer.matchAll(/\[\[([^\]]+)\]\]/g)].map((m) => m[1]!);
}
console.log(`recomputed ${rows.length} rows in ${((Date.now() - started) / 1000).toFixed(1)} s`);

const groups = [...new Set(rows.map((r) => `${r.set} ${r.size}`))].map((key) => {
  const [set, size] = key.split(" ");
  return { set: set!, size: Number(size) };
});

interface Rate {
  set: string;
  size: number;
  answerableThin: number;
  unanswerableThin: number;
  goldCitedWhenAnswered: number;
}

type Grouped = { set: string; size: number; answerable: Dumped[]; unanswerable: Dumped[] }[];
const grouped = (among: Dumped[]): Grouped =>
  groups.map(({ set, size }) => {
    const mine = among.filter((r) => r.set === set && r.size === size);
    return { set, size, answerable: mine.filter((r) => r.answerable), unanswerable: mine.filter((r) => !r.answerable) };
  });

function rates(t: ThinThresholds, among: Grouped): Rate[] {
  return among.map(({ set, size, answerable, unanswerable }) => {
    const answered = answerable.filter((r) => !isThin(r.features, t));
    return {
      set,
      size,
      answerableThin: 1 - answered.length / Math.max(answerable.length, 1),
      unanswerableThin: unanswerable.filter((r) => isThin(r.features, t)).length / Math.max(unanswerable.length, 1),
      goldCitedWhenAnswered: answered.filter((r) => r.goldSource && r.cited.includes(r.goldSource)).length / Math.max(answered.length, 1),
    };
  });
}

const steps = (from: number, to: number, step: number) => Array.from({ length: Math.round((to - from) / step) + 1 }, (_, i) => +(from + i * step).toFixed(3));
/** ClapNQ's unanswerable→thin counts; SQuAD's (adversarial, near 0 at any bar) breaks ties. */
const objective = (r: Rate[]) => r.reduce((sum, x) => sum + x.unanswerableThin * (x.set === "clapnq" ? 1 : 0.1), 0) / r.length;

function search(rowsToFit: Dumped[]) {
  const among = grouped(rowsToFit);
  let best: { t: ThinThresholds; score: number; cost: number } | null = null;
  const ownSteps = steps(0, 0.7, 0.025);
  for (const minCoverage of steps(0, 0.7, 0.05))
    for (const minOwnCoverage of ownSteps)
      for (const minOwnCoverageTyped of ownSteps.filter((x) => x >= minOwnCoverage))
        for (const minTypedCoverage of steps(0, 0.6, 0.1)) {
          const t = { minCoverage, minOwnCoverage, minOwnCoverageTyped, minTypedCoverage };
          const r = rates(t, among);
          if (r.some((x) => x.answerableThin > MAX_ANSWERABLE_THIN)) continue;
          const score = objective(r);
          const cost = r.reduce((sum, x) => sum + x.answerableThin, 0);
          if (!best || score > best.score + 1e-9 || (score > best.score - 1e-9 && cost < best.cost - 1e-9)) best = { t, score, cost };
        }
  return best?.t ?? null;
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`.padEnd(8);
function table(label: string, t: ThinThresholds) {
  console.log(`\n${label}: ${JSON.stringify(t)}`);
  console.log("  half          set      size   unans→thin  ans→thin  gold cited/answered");
  for (const half of ["calibration", "held-out"] as const)
    for (const x of rates(t, grouped(rows.filter((r) => r.half === half))))
      console.log(`  ${half.padEnd(13)} ${x.set.padEnd(8)} ${String(x.size).padEnd(6)} ${pct(x.unanswerableThin)}    ${pct(x.answerableThin)}  ${pct(x.goldCitedWhenAnswered)}`);
}

const current = gate ? GENERATOR_GATE : THIN_THRESHOLDS;
table(`current ${gate ? "GENERATOR_GATE" : "THIN_THRESHOLDS"}`, current);
// Only the calibration half is searched; what ships is what the held-out rows of this table show.
const fitted = search(rows.filter((r) => r.half === "calibration"));
if (fitted) table(`searched on the calibration half (put this in ${gate ? "GENERATOR_GATE" : "THIN_THRESHOLDS"})`, fitted);
else console.log(`no thresholds keep answerable→thin ≤ ${pct(MAX_ANSWERABLE_THIN)} at every size`);
