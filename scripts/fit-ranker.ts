// Fits the link ranker's model (src/retrieval/ranker-weights.json) from the committed training rows
// (scripts/ranker-training.jsonl.gz: every page the ranker scored for a calibration question of
// 2WikiMultihopQA and MuSiQue, each in its own brain and in a pooled one, and of ClapNQ and SQuAD 2.0, its
// features and label; scripts/ranker-rows.ts gathers them from a real server). Each set weighs the same in
// the fit, so single-hop questions keep their evidence first while bridges learn to follow links.
// Two models, compared by 2-fold cross-validation over questions (and the logistic one with each feature
// left out): logistic regression (L2, a fixed number of Newton steps) and a small gradient-boosted tree
// ensemble; the one with the higher mean nDCG@10 over the sets is written. Both fit the rows in a canonical
// order: the same file from the same rows, bit for bit.
//   bun scripts/fit-ranker.ts [--check] [--gather [--limit N]]
// --check refits from the committed rows and fails unless the committed weights are exactly that fit.
// --gather first regenerates the rows file from the data sets (BRAINBOX_EVAL_DIR, a few minutes).
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FEATURES } from "../src/retrieval/ranker-features";
import { halfOf } from "./eval-sweep";
import { decodeRows, encodeRows, fitGbdt, fitLogistic, meanQuality, modelText, type Row, type Scorer } from "./ranker-fit";
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
const crossValidated = (fit: (rows: Row[]) => Scorer, of: (r: Row) => Row = (r) => r): Record<string, number> => {
  const quality = [true, false].map((f) => meanQuality(fit(rows.filter((r) => fold(r.group) === f).map(of)), rows.filter((r) => fold(r.group) !== f).map(of)));
  return Object.fromEntries(Object.entries(quality[0]!).map(([set, q]) => [set, (q + quality[1]![set]!) / 2]));
};
const shown = (q: Record<string, number>) => Object.entries(q).map(([set, x]) => `${set} ${x.toFixed(3)}`).join("  ");
const mean = (q: Record<string, number>) => Object.values(q).reduce((a, b) => a + b, 0) / Object.values(q).length;
const logistic = crossValidated(fitLogistic);
const gbdt = crossValidated((r) => fitGbdt(r));
console.log(`  logistic               cross-validated nDCG@10 per set: ${shown(logistic)}  (mean ${mean(logistic).toFixed(4)})`);
console.log(`  gbdt                   cross-validated nDCG@10 per set: ${shown(gbdt)}  (mean ${mean(gbdt).toFixed(4)})`);
for (const [i, name] of FEATURES.entries())
  console.log(`  logistic without ${name.padEnd(12)}  ${shown(crossValidated(fitLogistic, (r) => ({ ...r, features: r.features.map((x, k) => (k === i ? 0 : x)) })))}`);
console.log(`  blend only             nDCG@10 per set: ${Object.entries(meanQuality({ score: (f) => f[0]! }, rows)).map(([s, q]) => `${s} ${q.toFixed(3)}`).join("  ")}`);

const chosen = mean(gbdt) > mean(logistic) ? "gbdt" : "logistic";
console.log(`chosen: ${chosen} (the higher mean over the sets)`);
const text = modelText(chosen, rows);
console.log(chosen === "logistic" ? text : `${text.split("\n").length} lines of trees`);
if (check) {
  if (readFileSync(OUT, "utf8") !== text) {
    console.error("src/retrieval/ranker-weights.json is not the fit of scripts/ranker-training.jsonl.gz: run scripts/fit-ranker.ts");
    process.exit(1);
  }
  console.log("src/retrieval/ranker-weights.json is the fit of the committed rows");
} else writeFileSync(OUT, text);
process.exit(0);
