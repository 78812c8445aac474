// Fits the link ranker's weights (src/retrieval/ranker-weights.json) on the calibration halves of the public
// sets: 2WikiMultihopQA and MuSiQue (make.py's split; a brain per question, labels: the supporting
// paragraphs) and the single-hop ClapNQ and SQuAD 2.0 subset (eval-sweep's split; one brain per set, labels:
// each question's gold passage). Every page the ranker scores for a question is a row of its features
// (ranker-features.ts) and whether it is relevant. Each set weighs the same in the fit, so single-hop
// questions keep their evidence first while bridges learn to follow links.
// Logistic regression (L2, Newton's method: deterministic, the same file from the same data), compared in
// the same run with a small gradient-boosted ranker by 2-fold cross-validation over questions.
//   BRAINBOX_EVAL_DIR=/work/shared/eval bun scripts/fit-ranker.ts [--limit N] [--check]
// --check fits without writing and fails when the committed file differs.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { queryRows } from "../src/db/plain";
import { answerService } from "../src/modules/answer";
import { FEATURES } from "../src/retrieval/ranker-features";
import type { Explained } from "../src/retrieval/ranker";
import { loadSources, pageSources, startEvalServer, type EvalServer } from "./eval-common";
import { halfOf } from "./eval-sweep";
import { fitGbdt, fitLogistic, meanQuality, type Row } from "./ranker-fit";
import { half, loadOwn, MULTIHOP_SETS, read } from "./multihop-data";
import { clapnq, squad } from "./retrieval-sets";

const at = process.argv.indexOf("--limit");
const limit = at > 0 ? Number(process.argv[at + 1]) : Infinity;
const check = process.argv.includes("--check");
const OUT = join(import.meta.dir, "../src/retrieval/ranker-weights.json");

async function explain(server: EvalServer, brainId: string, query: string): Promise<Explained[]> {
  const out: Explained[] = [];
  await answerService(server.running.ctx).retriever.retrieve({ brains: [{ id: brainId }], query, limit: 10, explain: out });
  return out;
}

async function sourcesOf(server: EvalServer, pageIds: number[]): Promise<Map<number, string>> {
  const rows = await queryRows<{ id: number; source_id: string }>(server.running.ctx.db, "SELECT id, source_id FROM pages WHERE id IN (SELECT value FROM json_each(?))", JSON.stringify(pageIds));
  return new Map(rows.map((r) => [Number(r.id), String(r.source_id)]));
}

async function multihopRows(server: EvalServer): Promise<Row[]> {
  const rows: Row[] = [];
  for (const set of MULTIHOP_SETS) {
    const items = read(set.file).filter((i) => half(i.id) === "calibration").slice(0, limit);
    for (const item of items) {
      const loaded = await loadOwn(server, item);
      const scored = await explain(server, loaded.brainId, item.question);
      const sources = await sourcesOf(server, scored.map((s) => s.pageId));
      for (const s of scored) {
        const paragraph = loaded.paragraphOf(item, sources.get(s.pageId) ?? "");
        rows.push({ set: set.key, group: item.id, features: s.features, relevant: paragraph !== undefined && item.paragraphs[paragraph]!.supporting });
      }
    }
    console.log(`${set.name}: ${items.length} calibration questions`);
  }
  return rows;
}

async function singleHopRows(server: EvalServer): Promise<Row[]> {
  const rows: Row[] = [];
  for (const set of [clapnq(), squad()]) {
    const { brain } = await server.api("/api/v1/brains", { name: set.name });
    const sourceOf = await loadSources(server, brain.id, set.docs.map((d) => ({ externalId: d.id, title: d.title, content: d.text })), { quiet: true });
    await pageSources(server, brain.id);
    const queries = set.queries.filter((q, i) => halfOf(`${set.name}:${i}:${q.query}`) === "calibration").slice(0, limit);
    for (const [i, q] of queries.entries()) {
      const scored = await explain(server, brain.id, q.query);
      const sources = await sourcesOf(server, scored.map((s) => s.pageId));
      for (const s of scored) rows.push({ set: set.name, group: `${set.name}:${i}`, features: s.features, relevant: sources.get(s.pageId) === sourceOf.get(q.relevant) });
    }
    console.log(`${set.name}: ${queries.length} calibration questions`);
  }
  return rows;
}

const server = await startEvalServer();
let rows: Row[];
try {
  rows = [...(await multihopRows(server)), ...(await singleHopRows(server))];
} finally {
  await server.close();
}
console.log(`${rows.length} scored pages, ${rows.filter((r) => r.relevant).length} relevant`);

// Model choice by 2-fold cross-validation over questions: mean over the sets of nDCG@10 of the re-ordered lists.
const fold = (group: string) => halfOf(`fold:${group}`) === "calibration";
for (const [name, fit] of [["logistic", fitLogistic], ["gbdt", fitGbdt]] as const) {
  const quality = [true, false].map((f) => meanQuality(fit(rows.filter((r) => fold(r.group) === f)), rows.filter((r) => fold(r.group) !== f)));
  console.log(`  ${name.padEnd(9)} cross-validated nDCG@10 per set: ${Object.entries(quality[0]!).map(([set, q]) => `${set} ${((q + quality[1]![set]!) / 2).toFixed(3)}`).join("  ")}`);
}
console.log(`  blend only             nDCG@10 per set: ${Object.entries(meanQuality({ score: (f) => f[0]! }, rows)).map(([s, q]) => `${s} ${q.toFixed(3)}`).join("  ")}`);

const model = fitLogistic(rows);
const text = `${JSON.stringify({ model: "logistic", features: FEATURES, bias: model.bias, weights: model.weights }, null, 2)}\n`;
console.log(text);
if (check) {
  if (readFileSync(OUT, "utf8") !== text) {
    console.error("src/retrieval/ranker-weights.json differs from the fit");
    process.exit(1);
  }
} else writeFileSync(OUT, text);
process.exit(0);
