// Multi-hop evaluation on public data (issue 58): 2WikiMultihopQA (500 dev) and MuSiQue (200 dev) from
// $BRAINBOX_EVAL_DIR/multihop, distractor setting: each question gets its own brain of its paragraphs (or, with
// --pooled, one brain of every selected question's distinct paragraphs), server defaults (extractive, lexical).
// Asks every question with link expansion and without, and prints per set and question kind:
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
//     [--pooled] [--no-compare] [--failures] [--dump file.jsonl] [--off rule,rule]
// --off switches named answer rules off (src/modules/answer/rules.ts) to measure what each is worth.
//   bun scripts/eval-multihop.ts --own ...   (the project's synthetic set: eval-multihop-own.ts)
// --limit N takes the first N questions of each set's half (file order) to keep runs short while iterating.
// --dump writes each question's retrieval candidates with their features (the ranker's training data).
import { Database } from "bun:sqlite";
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { answerService } from "../src/modules/answer";
import { RULES, switchRulesOff } from "../src/modules/answer/rules";
import { ftsMatch, queryTerms } from "../src/retrieval/terms";
import { EVAL_DIR, loadSources, pageSources, startEvalServer, type EvalServer } from "./eval-common";

if (process.argv.includes("--own")) {
  await import("./eval-multihop-own");
  process.exit(0);
}

interface Paragraph {
  title: string;
  text: string;
  supporting: boolean;
}
interface Item {
  id: string;
  dataset: "2wikimultihopqa" | "musique";
  type: string;
  question: string;
  answer: string;
  answer_aliases?: string[];
  paragraphs: Paragraph[];
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
const dumpFile = arg("--dump");
const rulesOff = arg("--off")?.split(",").filter(Boolean) ?? [];
switchRulesOff(rulesOff);
if (rulesOff.length) console.log(`answer rules off: ${rulesOff.join(", ")} (known: ${Object.values(RULES).join(", ")})`);

export const half = (id: string) => (BigInt(`0x${createHash("sha256").update(id).digest("hex")}`) % 2n === 0n ? "calibration" : "report");

function read(file: string): Item[] {
  return readFileSync(join(EVAL_DIR, "multihop", file), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

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
  answer: string;
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

function recallAt2(item: Item, ranked: (number | undefined)[]): { recall2: number; both2: boolean } {
  const supporting = item.paragraphs.flatMap((p, i) => (p.supporting ? [i] : []));
  const top = new Set(ranked.slice(0, 2));
  const found = supporting.filter((i) => top.has(i)).length;
  return { recall2: found / Math.min(2, supporting.length), both2: supporting.length === 2 && found === 2 };
}

type Mode = { name: string; expand: boolean };
const modes: Mode[] = compare
  ? [
      { name: "without expansion", expand: false },
      { name: "with expansion", expand: true },
    ]
  : [{ name: "with expansion", expand: true }];

/** Each question's paragraph index → source id, for one brain (own or pooled). */
type Loaded = { brainId: string; sourceOf: (item: Item, paragraph: number) => string | undefined; paragraphOf: (item: Item, sourceId: string) => number | undefined; slugSource: Map<string, string> };

async function loadOwn(server: EvalServer, item: Item): Promise<Loaded> {
  const { brain } = await server.api("/api/v1/brains", { name: `q ${item.id}`.slice(0, 80) });
  const ids = await loadSources(
    server,
    brain.id,
    item.paragraphs.map((p, i) => ({ externalId: String(i), title: p.title, content: p.text })),
    { quiet: true },
  );
  const bySource = new Map([...ids].map(([i, s]) => [s, Number(i)]));
  return { brainId: brain.id, sourceOf: (_item, i) => ids.get(String(i)), paragraphOf: (_item, s) => bySource.get(s), slugSource: await pageSources(server, brain.id) };
}

async function loadPooled(server: EvalServer, items: Item[]): Promise<Loaded> {
  const { brain } = await server.api("/api/v1/brains", { name: "pooled" });
  const key = (p: Paragraph) => `${p.title}\u0000${p.text}`;
  const docs = new Map<string, Paragraph>();
  for (const item of items) for (const p of item.paragraphs) docs.set(key(p), p);
  const keys = [...docs.keys()];
  const ids = await loadSources(server, brain.id, keys.map((k, i) => ({ externalId: String(i), title: docs.get(k)!.title, content: docs.get(k)!.text })));
  const sourceOfKey = new Map(keys.map((k, i) => [k, ids.get(String(i))!]));
  return {
    brainId: brain.id,
    sourceOf: (item, i) => sourceOfKey.get(key(item.paragraphs[i]!)),
    // A pooled paragraph shared by two questions maps to the first of the question's copies.
    paragraphOf: (item, s) => {
      const i = item.paragraphs.findIndex((p) => sourceOfKey.get(key(p)) === s);
      return i >= 0 ? i : undefined;
    },
    slugSource: await pageSources(server, brain.id),
  };
}

const dump: string[] = [];

async function askOne(server: EvalServer, loaded: Loaded, item: Item, mode: Mode): Promise<Outcome> {
  const service = answerService(server.running.ctx);
  const retriever = service.retriever as { retrieve: (input: any) => Promise<any> };
  const retrieve = retriever.retrieve.bind(retriever);
  retriever.retrieve = (input: any) => retrieve({ ...input, expand: mode.expand });
  try {
    const answer = await server.api(`/api/brains/${loaded.brainId}/ask`, { question: item.question });
    const context = await server.api(`/api/brains/${loaded.brainId}/context`, { query: item.question, limit: 10 });
    const text = normalized(answer.answerMd);
    const yesNo = isYesNo(item) && !answer.thin && new RegExp(`^${item.answer.trim().toLowerCase()}\\b`).test(text);
    const gold = !isYesNo(item) && golds(item).some((g) => ` ${text} `.includes(` ${g} `));
    const cited = new Set(answer.citations.map((c: any) => c.documentId));
    const allCited = item.paragraphs.every((p, i) => !p.supporting || cited.has(loaded.sourceOf(item, i)));
    const ranked = context.pages.map((p: any) => loaded.paragraphOf(item, loaded.slugSource.get(p.slug) ?? ""));
    if (dumpFile && mode.expand) {
      const r = await retrieve({ brains: [{ id: loaded.brainId }], query: item.question, limit: 10, expand: true, explain: true });
      dump.push(JSON.stringify({ id: item.id, dataset: item.dataset, half: half(item.id), candidates: (r.explain ?? []).map((c: any) => ({ ...c, supporting: item.paragraphs[loaded.paragraphOf(item, c.sourceId) ?? -1]?.supporting ?? false })) }));
    }
    return { item, mode: mode.name, gold, yesNo, cited: allCited, thin: answer.thin, ...recallAt2(item, ranked), answer: answer.thin ? `(thin) ${answer.answerMd}` : answer.answerMd };
  } finally {
    retriever.retrieve = retrieve;
  }
}

const pct = (n: number, d: number) => (d === 0 ? "   -  " : `${((100 * n) / d).toFixed(1).padStart(5)}%`);

function table(title: string, rows: { label: string; outcomes: Outcome[] }[], bare: Map<string, { recall2: number; both2: boolean }>) {
  console.log(`\n${title}`);
  console.log(`  ${"".padEnd(28)} ${["n", "gold", "yes/no", "cited", "r@2", "both@2", "thin", "bare r@2", "bare b@2"].map((h) => h.padStart(9)).join("")}`);
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
        pct(os.filter((o) => o.thin).length, os.length),
        pct(sum(b.map((x) => x.recall2)), b.length),
        pct(b2.filter((x) => x.both2).length, b2.length),
      ];
      console.log(`  ${`${label} · ${kind}`.padEnd(28)} ${cells.map((c) => c.padStart(9)).join("")}`);
    }
  }
}

const sets = [
  { name: "2WikiMultihopQA", key: "2wiki", file: "2wikimultihopqa_dev_500.jsonl" },
  { name: "MuSiQue", key: "musique", file: "musique_ans_dev_200.jsonl" },
].filter((s) => setArg === "all" || setArg === s.key);

const server = await startEvalServer();
try {
  const started = Date.now();
  for (const set of sets) {
    const items = read(set.file)
      .filter((i) => halfArg === "all" || half(i.id) === halfArg)
      .slice(0, limit);
    const bare = new Map(items.map((item) => [item.id, recallAt2(item, bareRanking(item.paragraphs, item.question))]));
    const byMode = new Map(modes.map((m) => [m.name, [] as Outcome[]]));
    const pool = pooled ? await loadPooled(server, items) : null;
    for (const item of items) {
      const loaded = pool ?? (await loadOwn(server, item));
      for (const mode of modes) byMode.get(mode.name)!.push(await askOne(server, loaded, item, mode));
    }
    table(
      `${set.name}, ${halfArg} half, ${items.length} questions, ${pooled ? "one pooled brain" : "a brain per question"} (${((Date.now() - started) / 1000).toFixed(0)} s)`,
      modes.map((m) => ({ label: m.name, outcomes: byMode.get(m.name)! })),
      bare,
    );
    if (showFailures)
      for (const o of byMode.get("with expansion")!)
        if (!(isYesNo(o.item) ? o.yesNo : o.gold))
          console.log(`  ✗ ${o.item.id} (${o.item.type}) ${o.item.question}\n    gold ${o.item.answer}; r@2 ${o.recall2}; ${o.answer.replace(/\s+/g, " ").slice(0, 300)}`);
  }
  if (dumpFile) writeFileSync(dumpFile, dump.join("\n") + "\n");
} finally {
  await server.close();
}
process.exit(0);
