// Multi-hop evaluation on public data (issue 58): 2WikiMultihopQA (500 dev) and MuSiQue (200 dev) from
// $BRAINBOX_EVAL_DIR/multihop, distractor setting: each question gets its own brain of its paragraphs (or, with
// --pooled, one brain of every selected question's distinct paragraphs), server defaults (extractive, lexical).
// Asks every question three ways in the same run: without links (the blend alone), the old hand-set link
// expansion (legacy-expand.ts) and the fitted link ranker (src/retrieval/ranker.ts, the default), and prints
// per set and question kind:
//   gold    the answer contains the gold answer or an alias (non yes/no questions), case- and accent-blind
//   yes/no  a yes/no question answered "Yes"/"No" as the gold says (thin counts as wrong)
//   cited   every supporting paragraph's source is cited
//   r@2     /context recall@2: supporting paragraphs among the first two pages, over min(2, supporting)
//   both@2  every supporting paragraph in the first two (questions with two supporting paragraphs)
//   thin    thin answers
// beside a bare per-brain BM25: an FTS5 index (porter, title 3 / body 1, as DESIGN.md) over the same
// paragraphs alone, queried with the product's query terms.
// The split is make.py's: half(id) = calibration when sha256(id) is even, else report.
//   bun scripts/eval-multihop.ts [--half calibration|report|all] [--set 2wiki|musique|all] [--limit N]
//     [--pooled] [--no-compare] [--failures] [--misses] [--off rule,rule]
// --misses prints each question whose supporting paragraphs are not both in /context's first two, with its first four.
// --off switches named answer rules off (src/modules/answer/rules.ts) to measure what each is worth.
//   bun scripts/eval-multihop.ts --own ...   (the project's synthetic set: eval-multihop-own.ts)
// --id ID,ID asks only those questions (reading one failure closely).
// --outcomes FILE writes each fitted-ranker outcome as a JSON line (id, gold, cited, r@2, answer, first pages):
// two runs' files side by side show which questions one setting (pooled, a rule off) loses or wins.
// --limit N takes the first N questions of each set's half (file order) to keep runs short while iterating.
// --no-compare asks with the fitted ranker only. The ranker's training data: scripts/fit-ranker.ts.
import { Database } from "bun:sqlite";
import { writeFileSync } from "node:fs";
import { answerService } from "../src/modules/answer";
import { RULES, switchRulesOff } from "../src/modules/answer/rules";
import type { Rerank } from "../src/retrieval/retriever";
import { ftsMatch, queryTerms } from "../src/retrieval/terms";
import { startEvalServer, type EvalServer } from "./eval-common";
import { expandAlongLinks } from "./legacy-expand";
import { half, loadOwn, loadPooled, MULTIHOP_SETS, read, type Item, type Loaded, type Paragraph } from "./multihop-data";

if (process.argv.includes("--own")) {
  await import("./eval-multihop-own");
  process.exit(0);
}


const arg = (name: string) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const halfArg = arg("--half") ?? "calibration";
const setArg = arg("--set") ?? "all";
const limit = Number(arg("--limit") ?? Infinity);
const pooled = process.argv.includes("--pooled");
const compare = !process.argv.includes("--no-compare");
const showFailures = process.argv.includes("--failures");
const showMisses = process.argv.includes("--misses");
const onlyIds = arg("--id")?.split(",");
const outcomesFile = arg("--outcomes");
const outcomeLines: string[] = [];
const rulesOff = arg("--off")?.split(",").filter(Boolean) ?? [];
switchRulesOff(rulesOff);
if (rulesOff.length) console.log(`answer rules off: ${rulesOff.join(", ")} (known: ${Object.values(RULES).join(", ")})`);



/** Case-, accent- and punctuation-blind form for "contains the gold answer". */
export const normalized = (s: string) =>
  s
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/\[\[[^\]]*\]\]/g, " ")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
const isYesNo = (item: Item) => /^(yes|no)$/i.test(item.answer.trim());
const golds = (item: Item) => [item.answer, ...(item.answer_aliases ?? [])].map(normalized).filter(Boolean);
/** Question kind for the table: bridge (compositional, inference, MuSiQue hops) or comparison. */
const kindOf = (item: Item) => (/comparison/.test(item.type) ? "comparison" : "bridge");

interface Outcome {
  item: Item;
  mode: string;
  gold: boolean;
  yesNo: boolean;
  cited: boolean;
  thin: boolean;
  recall2: number;
  both2: boolean;
  ndcg: number;
  answer: string;
  /** The first /context pages (title, and whether it is one of this question's supporting paragraphs). */
  top: string[];
}

/** The bare per-brain BM25: the question's paragraphs alone in an FTS5 index; paragraph indexes, best first. */
function bareRanking(paragraphs: Paragraph[], question: string): number[] {
  const db = new Database(":memory:");
  try {
    db.run("CREATE VIRTUAL TABLE docs USING fts5(title, body, tokenize='porter unicode61 remove_diacritics 2')");
    const insert = db.prepare("INSERT INTO docs(rowid, title, body) VALUES (?, ?, ?)");
    paragraphs.forEach((p, i) => insert.run(i + 1, p.title, p.text));
    const terms = queryTerms(question);
    if (terms.length === 0) return [];
    const rows = db.query("SELECT rowid AS id FROM docs WHERE docs MATCH ? ORDER BY bm25(docs, 3.0, 1.0) LIMIT 10").all(ftsMatch(terms)) as { id: number }[];
    return rows.map((r) => r.id - 1);
  } finally {
    db.close();
  }
}

/** recall@2, both@2 and nDCG@10 (binary gains: the supporting paragraphs, each counted once at its best rank). */
function recallAt2(item: Item, ranked: (number | undefined)[]): { recall2: number; both2: boolean; ndcg: number } {
  const supporting = item.paragraphs.flatMap((p, i) => (p.supporting ? [i] : []));
  const top = new Set(ranked.slice(0, 2));
  const found = supporting.filter((i) => top.has(i)).length;
  const firsts = [...new Set(ranked.slice(0, 10))];
  const dcg = firsts.reduce((sum: number, p, r) => sum + (p !== undefined && item.paragraphs[p]?.supporting ? 1 / Math.log2(r + 2) : 0), 0);
  const ideal = supporting.slice(0, 10).reduce((sum, _, r) => sum + 1 / Math.log2(r + 2), 0);
  return { recall2: found / Math.min(2, supporting.length), both2: supporting.length === 2 && found === 2, ndcg: ideal > 0 ? dcg / ideal : 0 };
}

type Mode = { name: string; expand: boolean; rerank?: Rerank };
const FITTED = "fitted ranker";
const modes: Mode[] = compare
  ? [
      { name: "without links", expand: false },
      { name: "old ranking", expand: true, rerank: (db, blended, terms, stats) => expandAlongLinks(db, blended, terms, stats) },
      { name: FITTED, expand: true },
    ]
  : [{ name: FITTED, expand: true }];


/** Milliseconds spent in /ask and in /context over the run (where a pooled run's time goes). */
const timing = { ask: 0, context: 0 };

async function askOne(server: EvalServer, loaded: Loaded, item: Item, mode: Mode): Promise<Outcome> {
  const service = answerService(server.running.ctx);
  const retriever = service.retriever as { retrieve: (input: any) => Promise<any> };
  const retrieve = retriever.retrieve.bind(retriever);
  retriever.retrieve = (input: any) => retrieve({ ...input, expand: mode.expand, rerank: mode.rerank });
  try {
    let t = performance.now();
    const answer = await server.api(`/api/brains/${loaded.brainId}/ask`, { question: item.question });
    timing.ask += performance.now() - t;
    t = performance.now();
    const context = await server.api(`/api/brains/${loaded.brainId}/context`, { query: item.question, limit: 10 });
    timing.context += performance.now() - t;
    const text = normalized(answer.answerMd);
    const yesNo = isYesNo(item) && !answer.thin && new RegExp(`^${item.answer.trim().toLowerCase()}\\b`).test(text);
    const gold = !isYesNo(item) && golds(item).some((g) => ` ${text} `.includes(` ${g} `));
    const cited = new Set(answer.citations.map((c: any) => c.documentId));
    const allCited = item.paragraphs.every((p, i) => !p.supporting || cited.has(loaded.sourceOf(item, i)));
    const ranked = context.pages.map((p: any) => loaded.paragraphOf(item, loaded.slugSource.get(p.slug) ?? ""));
    const top = context.pages.slice(0, 4).map((p: any, i: number) => `${item.paragraphs[ranked[i]!]?.supporting ? "+" : "-"}${p.title}`);
    return { item, mode: mode.name, gold, yesNo, cited: allCited, thin: answer.thin, ...recallAt2(item, ranked), answer: answer.thin ? `(thin) ${answer.answerMd}` : answer.answerMd, top };
  } finally {
    retriever.retrieve = retrieve;
  }
}

const pct = (n: number, d: number) => (d === 0 ? "   -  " : `${((100 * n) / d).toFixed(1).padStart(5)}%`);

function table(title: string, rows: { label: string; outcomes: Outcome[] }[], bare: Map<string, { recall2: number; both2: boolean; ndcg: number }>) {
  console.log(`\n${title}`);
  console.log(`  ${"".padEnd(28)} ${["n", "gold", "yes/no", "cited", "r@2", "both@2", "nDCG@10", "thin", "bare r@2", "bare b@2", "bare nDCG", "r@2 -bare"].map((h) => h.padStart(9)).join("")}`);
  for (const { label, outcomes } of rows) {
    for (const kind of ["all", "bridge", "comparison"]) {
      const os = outcomes.filter((o) => kind === "all" || kindOf(o.item) === kind);
      if (os.length === 0) continue;
      const open = os.filter((o) => !isYesNo(o.item));
      const yn = os.filter((o) => isYesNo(o.item));
      const two = os.filter((o) => o.item.paragraphs.filter((p) => p.supporting).length === 2);
      const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
      const b = os.map((o) => bare.get(o.item.id)!);
      const b2 = two.map((o) => bare.get(o.item.id)!);
      const cells = [
        String(os.length),
        pct(open.filter((o) => o.gold).length, open.length),
        pct(yn.filter((o) => o.yesNo).length, yn.length),
        pct(os.filter((o) => o.cited).length, os.length),
        pct(sum(os.map((o) => o.recall2)), os.length),
        pct(two.filter((o) => o.both2).length, two.length),
        (sum(os.map((o) => o.ndcg)) / os.length).toFixed(3),
        pct(os.filter((o) => o.thin).length, os.length),
        pct(sum(b.map((x) => x.recall2)), b.length),
        pct(b2.filter((x) => x.both2).length, b2.length),
        (sum(b.map((x) => x.ndcg)) / b.length).toFixed(3),
        `${((100 * (sum(os.map((o) => o.recall2)) - sum(b.map((x) => x.recall2)))) / os.length).toFixed(1)}pt`,
      ];
      console.log(`  ${`${label} · ${kind}`.padEnd(28)} ${cells.map((c) => c.padStart(9)).join("")}`);
    }
  }
}

const sets = MULTIHOP_SETS.filter((s) => setArg === "all" || setArg === s.key);

// One job at a time, so the wiki and the figures are the same from run to run (eval-common.ts).
const server = await startEvalServer({ serialJobs: true });
try {
  for (const set of sets) {
    const started = Date.now();
    const items = read(set.file)
      .filter((i) => halfArg === "all" || half(i.id) === halfArg)
      .filter((i) => !onlyIds || onlyIds.includes(i.id))
      .slice(0, limit);
    const bare = new Map(items.map((item) => [item.id, recallAt2(item, bareRanking(item.paragraphs, item.question))]));
    const byMode = new Map(modes.map((m) => [m.name, [] as Outcome[]]));
    const pool = pooled ? await loadPooled(server, items, set.name) : null;
    timing.ask = timing.context = 0;
    // Where the time goes (a pooled run's wiki build against its questions): loading, then asking.
    let loading = pool ? Date.now() - started : 0;
    let asking = 0;
    for (const item of items) {
      let t = Date.now();
      const loaded = pool ?? (await loadOwn(server, item));
      loading += Date.now() - t;
      t = Date.now();
      for (const mode of modes) byMode.get(mode.name)!.push(await askOne(server, loaded, item, mode));
      asking += Date.now() - t;
    }
    const seconds = (ms: number) => `${(ms / 1000).toFixed(0)} s`;
    table(
      `${set.name}, ${halfArg} half, ${items.length} questions, ${pooled ? "one pooled brain" : "a brain per question"} (${seconds(Date.now() - started)}: loading ${seconds(loading)}, asking ${seconds(asking)}; /ask ${(timing.ask / items.length / modes.length).toFixed(0)} ms, /context ${(timing.context / items.length / modes.length).toFixed(0)} ms a question)`,
      modes.map((m) => ({ label: m.name, outcomes: byMode.get(m.name)! })),
      bare,
    );
    for (const o of byMode.get(FITTED)!)
      outcomeLines.push(JSON.stringify({ set: set.key, id: o.item.id, type: o.item.type, gold: o.gold, yesNo: o.yesNo, cited: o.cited, thin: o.thin, recall2: o.recall2, answer: o.answer, top: o.top }));
    if (showFailures)
      for (const o of byMode.get(FITTED)!)
        if (!(isYesNo(o.item) ? o.yesNo : o.gold))
          console.log(`  ✗ ${o.item.id} (${o.item.type}) ${o.item.question}\n    gold ${o.item.answer}; r@2 ${o.recall2}; ${o.answer.replace(/\s+/g, " ").slice(0, onlyIds ? undefined : 300)}`);
    if (showMisses)
      for (const o of byMode.get(FITTED)!)
        if (o.recall2 < 1)
          console.log(`  ○ ${o.item.id} (${o.item.type}) ${o.item.question}\n    supporting: ${o.item.paragraphs.filter((p) => p.supporting).map((p) => p.title).join(" | ")}\n    /context: ${o.top.join(" | ")}`);
  }
  if (outcomesFile) writeFileSync(outcomesFile, outcomeLines.map((l) => `${l}\n`).join(""));
} finally {
  await server.close();
}
process.exit(0);
