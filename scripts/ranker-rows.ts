// The link ranker's training rows (issue 58): every page the ranker scores for a calibration question, its
// features (src/retrieval/ranker-features.ts) and whether it is relevant, gathered from a real server and
// written to scripts/ranker-training.jsonl.gz, which scripts/fit-ranker.ts fits from. Questions: the
// calibration halves of 2WikiMultihopQA and MuSiQue (make.py's split; each question in a brain of its own
// paragraphs and again in one pooled brain of every calibration question's, labels: the supporting paragraphs) and of the single-hop ClapNQ and SQuAD 2.0 subset (eval-sweep's split; one brain per
// set, labels: each question's gold passage).
// The server runs one job at a time and loads each brain's sources in one batch request, so the wiki (its
// links, concept pages and page ids) is built the same way each run. The rows are not yet the same bit for
// bit from run to run: 2Wiki's per-question brains are, later sets' concept seeds (`queryConcept`) move in the
// fourth decimal with the concept index of the brains loaded before them, server-wide. The weights are
// reproducible from the committed rows (fit-ranker --check).
//   BRAINBOX_EVAL_DIR=/work/shared/eval bun scripts/ranker-rows.ts [--limit N] [--out FILE]
// --limit N takes the first N calibration questions of each set (a quick look; the committed file has all).
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { queryRows } from "../src/db/plain";
import { answerService } from "../src/modules/answer";
import type { Explained } from "../src/retrieval/ranker";
import { loadSources, pageSources, startEvalServer, type EvalServer } from "./eval-common";
import { halfOf } from "./eval-sweep";
import { half, loadOwn, loadPooled, MULTIHOP_SETS, read, type Item, type Loaded } from "./multihop-data";
import { encodeRows, type Row } from "./ranker-fit";
import { clapnq, squad } from "./retrieval-sets";

export const ROWS_FILE = join(import.meta.dir, "ranker-training.jsonl.gz");

async function explain(server: EvalServer, brainId: string, query: string): Promise<Explained[]> {
  const out: Explained[] = [];
  await answerService(server.running.ctx).retriever.retrieve({ brains: [{ id: brainId }], query, limit: 10, explain: out });
  return out;
}

async function sourcesOf(server: EvalServer, pageIds: number[]): Promise<Map<number, string>> {
  const rows = await queryRows<{ id: number; source_id: string }>(server.running.ctx.db, "SELECT id, source_id FROM pages WHERE id IN (SELECT value FROM json_each(?))", JSON.stringify(pageIds));
  return new Map(rows.map((r) => [Number(r.id), String(r.source_id)]));
}

async function questionRows(server: EvalServer, set: string, group: string, loaded: Loaded, item: Item): Promise<Row[]> {
  const scored = await explain(server, loaded.brainId, item.question);
  const sources = await sourcesOf(server, scored.map((s) => s.pageId));
  return scored.map((s) => {
    const paragraph = loaded.paragraphOf(item, sources.get(s.pageId) ?? "");
    return { set, group, features: s.features, relevant: paragraph !== undefined && item.paragraphs[paragraph]!.supporting };
  });
}

/** Each calibration question twice: in a brain of its own paragraphs, and in one pooled brain of every question's. */
async function multihopRows(server: EvalServer, limit: number): Promise<Row[]> {
  const rows: Row[] = [];
  for (const set of MULTIHOP_SETS) {
    const items = read(set.file).filter((i) => half(i.id) === "calibration").slice(0, limit);
    for (const item of items) rows.push(...(await questionRows(server, set.key, item.id, await loadOwn(server, item), item)));
    const pool = await loadPooled(server, items, set.name);
    for (const item of items) rows.push(...(await questionRows(server, set.key, `pooled:${item.id}`, pool, item)));
    console.log(`${set.name}: ${items.length} calibration questions, each in its own brain and in a pooled one`);
  }
  return rows;
}

async function singleHopRows(server: EvalServer, limit: number): Promise<Row[]> {
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

/** Gathers every calibration question's rows from a fresh server. */
export async function gatherRows(limit = Infinity): Promise<Row[]> {
  const server = await startEvalServer({ serialJobs: true });
  try {
    return [...(await multihopRows(server, limit)), ...(await singleHopRows(server, limit))];
  } finally {
    await server.close();
  }
}

if (import.meta.main) {
  const arg = (name: string) => {
    const at = process.argv.indexOf(name);
    return at > 0 ? process.argv[at + 1] : undefined;
  };
  const rows = await gatherRows(Number(arg("--limit") ?? Infinity));
  const out = arg("--out") ?? ROWS_FILE;
  writeFileSync(out, encodeRows(rows));
  console.log(`${rows.length} scored pages (${rows.filter((r) => r.relevant).length} relevant) written to ${out}`);
  process.exit(0);
}
