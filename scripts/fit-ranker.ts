// Fits the link ranker's weights (src/retrieval/ranker-weights.json) from the committed training rows
// (scripts/ranker-training.jsonl.gz: every page the ranker scored for a calibration question of
// 2WikiMultihopQA, MuSiQue, ClapNQ and SQuAD 2.0, its features and label; scripts/ranker-rows.ts gathers
// them from a real server). Each set weighs the same in the fit, so single-hop questions keep their evidence
// first while bridges learn to follow links.
// Logistic regression (L2, a fixed number of Newton steps over the rows in a canonical order: the same file
// from the same rows, bit for bit), compared in the same run with a small gradient-boosted ranker by 2-fold
// cross-validation over questions, and with each feature left out.
//   bun scripts/fit-ranker.ts [--check] [--gather [--limit N]]
// --check refits from the committed rows and fails unless the committed weights are exactly that fit.
// --gather first regenerates the rows file from the data sets (BRAINBOX_EVAL_DIR, a few minutes).
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FEATURES } from "../src/retrieval/ranker-features";
import { halfOf } from "./eval-sweep";
import { decodeRows, encodeRows, fitGbdt, fitLogistic, meanQuality, weightsText, type Row, type Scorer } from "./ranker-fit";
import { gatherRows, ROWS_FILE } from "./ranker-rows";

const at = process.argv.indexOf("--limit");
const limit = at > 0 ? Number(process.argv[at + 1]) : Infinity;
const check = process.argv.includes("--check");
const OUT = join(import.meta.dir, "../src/retrieval/ranker-weights.json");

if (process.argv.includes("--gather")) writeFileSync(ROWS_FILE, encodeRows(await gatherRows(limit)));
const rows = decodeRows(readFileSync(ROWS_FILE));
console.log(`${rows.length} scored pages, ${rows.filter((r) => r.relevant).length} relevant, ${new Set(rows.map((r) => r.group)).size} questions`);

// Model choice by 2-fold cross-validation over questions: mean over the sets of nDCG@10 of the re-ordered lists.
const fold = (group: string) => halfOf(`fold:${group}`) === "calibration";
const crossValidated = (fit: (rows: Row[]) => Scorer, of: (r: Row) => Row = (r) => r) => {
  const quality = [true, false].map((f) => meanQuality(fit(rows.filter((r) => fold(r.group) === f).map(of)), rows.filter((r) => fold(r.group) !== f).map(of)));
  return Object.entries(quality[0]!).map(([set, q]) => `${set} ${((q + quality[1]![set]!) / 2).toFixed(3)}`).join("  ");
};
console.log(`  logistic               cross-validated nDCG@10 per set: ${crossValidated(fitLogistic)}`);
console.log(`  gbdt                   cross-validated nDCG@10 per set: ${crossValidated((r) => fitGbdt(r))}`);
for (const [i, name] of FEATURES.entries())
  console.log(`  logistic without ${name.padEnd(12)}  ${crossValidated(fitLogistic, (r) => ({ ...r, features: r.features.map((x, k) => (k === i ? 0 : x)) }))}`);
console.log(`  blend only             nDCG@10 per set: ${Object.entries(meanQuality({ score: (f) => f[0]! }, rows)).map(([s, q]) => `${s} ${q.toFixed(3)}`).join("  ")}`);

const text = weightsText(FEATURES, fitLogistic(rows));
console.log(text);
if (check) {
  if (readFileSync(OUT, "utf8") !== text) {
    console.error("src/retrieval/ranker-weights.json is not the fit of scripts/ranker-training.jsonl.gz: run scripts/fit-ranker.ts");
    process.exit(1);
  }
  console.log("src/retrieval/ranker-weights.json is the fit of the committed rows");
} else writeFileSync(OUT, text);
process.exit(0);
