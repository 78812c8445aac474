// Retrieval latency of POST /api/brains/{id}/context over real HTTP, on one brain of N synthetic pages
// (Zipf-distributed words, 384-dim clustered unit vectors), lexical and hybrid, plus the vector search's
// recall against an exact scan and the exact-SQL alternative for comparison. Baselines measured in the same
// run (the machine is shared, so absolute numbers drift): a bare FTS5 table with DESIGN.md's configuration
// over the same pages, queried in process (no HTTP), and GET /api/health over the same HTTP client.
//   bun scripts/bench-retrieval.ts [--pages 10000,100000] [--queries 300] [--warmup 100] [--brains 1]
// --brains N spreads the pages over N brains of one server (page i in brain i mod N; each brain its own
// source) and sends each query to one of them in turn: per-brain ranking statistics at many brains.
// The hybrid runs use a synthetic query embedder (a vector near a page's), so the numbers are retrieval
// only: a real model adds its own per-query embedding time (bge-small on 2 cores: tens of ms).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import type { Embedder } from "../src/ai/embedder";
import { loadConfig } from "../src/config";
import type { RootDb } from "../src/db/client";
import { createLogger } from "../src/lib/log";
import { answerService } from "../src/modules/answer";
import type { Rerank } from "../src/retrieval/retriever";
import { ftsMatch, queryTerms } from "../src/retrieval/terms";
import { expandAlongLinks } from "./legacy-expand";
import { buildSnapshot } from "../src/retrieval/vector-index";
import { startServer } from "../src/runtime";
import { mulberry32 } from "../tests/support/random";
import { pseudoWord, zipfSampler } from "./synthetic-abstracts";
import { runtimeEnvLine } from "./runtime-env";

console.log(runtimeEnvLine());

const arg = (name: string, fallback: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1]! : fallback;
};
const SIZES = arg("pages", "10000,100000").split(",").map(Number);
const QUERIES = Number(arg("queries", "300"));
const BRAINS = Math.max(1, Number(arg("brains", "1")));
const WARMUP = Number(arg("warmup", "100"));
const DIM = 384;
const MODEL = "bench-synthetic";
const VOCABULARY = 30_000;
const TOPICS = 1_000;

const random = mulberry32(42);
const gauss = () => Math.sqrt(-2 * Math.log(random() || 1e-12)) * Math.cos(2 * Math.PI * random());
// Pseudo-words (syllable strings: the porter stemmer leaves them alone), drawn by Zipf's law.
const words = Array.from({ length: VOCABULARY }, (_, i) => pseudoWord(i));
const zipfWord = zipfSampler(words, random);
const midWord = () => {
  for (;;) {
    const w = zipfWord();
    if (words.indexOf(w) >= 50) return w;
  }
};
const topicCentres = Array.from({ length: TOPICS }, () => unit(Float32Array.from({ length: DIM }, gauss)));
const topicWords = Array.from({ length: TOPICS }, () => Array.from({ length: 12 }, () => words[200 + Math.floor(random() * (VOCABULARY - 200))]!));

function unit(v: Float32Array): Float32Array {
  const n = Math.hypot(...v) || 1;
  return v.map((x) => x / n);
}

function syntheticPage(i: number) {
  const topic = Math.floor(random() * TOPICS);
  const body: string[] = [];
  const length = 120 + Math.floor(random() * 240);
  for (let w = 0; w < length; w++) body.push(random() < 0.08 ? topicWords[topic]![Math.floor(random() * 12)]! : zipfWord());
  const title = [topicWords[topic]![0]!, zipfWord(), zipfWord()].join(" ");
  const vector = unit(topicCentres[topic]!.map((c) => c + 0.08 * gauss()));
  return { index: i, slug: `page-${i}`, title, markdown: `${body.join(" ")}.`, topic, vector };
}

async function fill(db: RootDb, brainIds: string[], count: number) {
  const brainOf = (i: number) => brainIds[i % brainIds.length]!;
  const vectors: { vector: Float32Array; topic: number }[] = [];
  const BATCH = 500;
  for (let start = 0; start < count; start += BATCH) {
    const batch = Array.from({ length: Math.min(BATCH, count - start) }, (_, k) => syntheticPage(start + k));
    await db.batch(
      batch.flatMap((p) => [
        db.run(sql`INSERT INTO pages (brain_id, source_id, slug, title, markdown) VALUES (${brainOf(p.index)}, ${`src_${brainOf(p.index)}`}, ${p.slug}, ${p.title}, ${p.markdown})`),
        db.run(sql`INSERT INTO bare_fts (rowid, title, body) VALUES (last_insert_rowid(), ${p.title}, ${p.markdown})`),
        db.run(sql`INSERT INTO page_vectors (page_id, brain_id, model, embedding)
          VALUES ((SELECT max(id) FROM pages), ${brainOf(p.index)}, ${MODEL}, vector32(${JSON.stringify(Array.from(p.vector))}))`),
      ]) as unknown as Parameters<RootDb["batch"]>[0],
    );
    for (const p of batch) vectors.push({ vector: p.vector, topic: p.topic });
  }
  return vectors;
}

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function syntheticQuery() {
  const topic = Math.floor(random() * TOPICS);
  // Query words skip the 50 commonest (in real text those are the stopwords retrieval removes).
  const terms = [topicWords[topic]![Math.floor(random() * 12)]!, midWord(), words[50 + Math.floor(random() * 2000)]!, midWord()];
  return { text: `what about ${terms.join(" ")}?`, vector: unit(topicCentres[topic]!.map((c) => c + 0.1 * gauss())) };
}

for (const size of SIZES) {
  const dataDir = mkdtempSync(join(tmpdir(), "brainbox-bench-"));
  const config = loadConfig({ BRAINBOX_PORT: "0", BRAINBOX_DATA_DIR: dataDir, BRAINBOX_JOBS: "false", BRAINBOX_LOG_LEVEL: "error" });
  const running = await startServer(config, createLogger("error"));
  const key = running.firstKey!.key;
  const call = (path: string, json?: unknown) =>
    fetch(running.url + path, {
      method: json ? "POST" : "GET",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: json ? JSON.stringify(json) : undefined,
    });
  try {
    const db = running.ctx.db;
    const brainIds: string[] = [];
    for (let b = 0; b < BRAINS; b++) {
      const { brain: made } = (await (await call("/api/v1/brains", { name: `Bench ${b}` })).json()) as any;
      await db.run(sql`INSERT INTO sources (id, brain_id, type, title, status, content) VALUES (${`src_${made.id}`}, ${made.id}, 'note', 'bench', 'ready', '')`);
      brainIds.push(made.id);
    }
    const brain = { id: brainIds[0]! };
    let turn = 0;
    // The baseline: DESIGN.md's bare index (title, body; porter; bm25 3/1) over the same pages.
    await db.run(sql.raw("CREATE VIRTUAL TABLE bare_fts USING fts5(title, body, tokenize='porter unicode61 remove_diacritics 2')"));
    let t = performance.now();
    const stored = await fill(db, brainIds, size);
    console.log(`\n== ${size} pages in ${BRAINS} brain${BRAINS > 1 ? "s" : ""} (${DIM}-dim vectors): written in ${((performance.now() - t) / 1000).toFixed(1)} s`);

    const queries = Array.from({ length: QUERIES }, syntheticQuery);
    const vectorOf = new Map(queries.map((q) => [q.text, q.vector]));
    const context = async (q: { text: string }, limit?: number) =>
      (await call(`/api/brains/${brainIds[turn++ % BRAINS]}/context`, limit ? { query: q.text, limit } : { query: q.text })).arrayBuffer();
    const bareQuery = (q: { text: string }) =>
      db.all(sql`SELECT rowid FROM bare_fts WHERE bare_fts MATCH ${ftsMatch(queryTerms(q.text))} ORDER BY bm25(bare_fts, 3.0, 1.0) LIMIT 10`);
    /** Each query through every side in turn, so a drift of the shared host's speed falls on all of them alike. */
    const sideBySide = async (sides: [label: string, run: (q: (typeof queries)[number]) => Promise<unknown>][]) => {
      const times = sides.map(() => [] as number[]);
      for (const q of queries)
        for (const [i, [, run]] of sides.entries()) {
          const started = performance.now();
          await run(q);
          times[i]!.push(performance.now() - started);
        }
      const p50s = times.map((ts) => percentile(ts.sort((a, b) => a - b), 50));
      sides.forEach(([label], i) =>
        console.log(`${label.padEnd(36)} p50 ${p50s[i]!.toFixed(1)} ms   p99 ${percentile(times[i]!, 99).toFixed(1)} ms${i > 0 && /^(context|retriever)/.test(label) ? `   p50 ×${(p50s[i]! / p50s[0]!).toFixed(2)} of the bare table` : ""}${label.includes("fitted") && i > 1 ? `, ×${(p50s[i]! / p50s[i - 1]!).toFixed(2)} of the old expansion` : ""}`),
      );
    };
    // Every side warmed on other queries first (JIT, statement caches, the index's first pages read from
    // disk): the first hundred requests of a fresh process ran ~1 ms slower at p50 than the next ones.
    for (const q of Array.from({ length: WARMUP }, syntheticQuery)) {
      await bareQuery(q);
      await context(q);
    }
    await sideBySide([
      ["baseline: bare FTS5, in process", bareQuery],
      ["baseline: GET /api/health, HTTP", async () => (await call("/api/health")).arrayBuffer()],
      ["context, lexical", (q) => context(q)],
      ["context, lexical, limit 50", (q) => context(q, 50)],
    ]);
    // Before and after the fitted link ranker, in process and interleaved (the same host load on both).
    const inProcess = answerService(running.ctx).retriever;
    const oldRanking: Rerank = (d, blended, terms, stats) => expandAlongLinks(d, blended, terms, stats);
    const brainFor = () => [{ id: brainIds[turn++ % BRAINS]! }];
    await sideBySide([
      ["baseline: bare FTS5, in process", bareQuery],
      ["retriever, without links", (q) => inProcess.retrieve({ brains: brainFor(), query: q.text, limit: 5, expand: false })],
      ["retriever, old link expansion", (q) => inProcess.retrieve({ brains: brainFor(), query: q.text, limit: 5, rerank: oldRanking })],
      ["retriever, fitted ranker", (q) => inProcess.retrieve({ brains: brainFor(), query: q.text, limit: 5 })],
    ]);
    // The vector side reads one brain's snapshot: measured on one brain.
    if (BRAINS > 1) continue;
    // Hybrid: a synthetic embedder answers the query's prepared vector.
    const embedder: Embedder = { model: MODEL, dim: DIM, embed: async (texts) => texts.map((x) => vectorOf.get(x) ?? queries[0]!.vector) };
    running.ctx.ai.embedder = embedder;
    const retriever = answerService(running.ctx).retriever;
    t = performance.now();
    await retriever.vectors.search(brain.id, MODEL, queries[0]!.vector, 10);
    console.log(`vector snapshot load                ${(performance.now() - t).toFixed(0)} ms`);
    await sideBySide([
      ["baseline: bare FTS5, in process", bareQuery],
      ["context, hybrid (in-memory vectors)", (q) => context(q)],
    ]);

    // Recall@10 of the in-memory search against an exact float scan of the same vectors.
    const snapshot = buildSnapshot(brain.id, MODEL, 0, stored.map((_, i) => i), stored.map((s) => s.vector));
    let recall = 0;
    const sample = queries.slice(0, 50);
    for (const q of sample) {
      const exact = stored.map((s, i) => ({ i, d: dot(s.vector, q.vector) })).sort((a, b) => b.d - a.d).slice(0, 10).map((x) => x.i);
      const { hits } = await retriever.vectors.search(brain.id, MODEL, q.vector, 10);
      const ids = new Set(hits.map((h) => h.pageId));
      const pageIdOf = await db.all<{ id: number }>(sql`SELECT id FROM pages WHERE brain_id = ${brain.id} ORDER BY id`);
      recall += exact.filter((i) => ids.has(Number(pageIdOf[i]!.id))).length / 10;
    }
    console.log(`vector recall@10 vs exact           ${(recall / sample.length).toFixed(3)}  (${snapshot.count * snapshot.dim <= 1_000_000 ? "exact int8 scan" : "1-bit prefilter + int8 rescoring"})`);

    // The alternative: exact search in SQL.
    const sqlTimes: number[] = [];
    for (const q of queries.slice(0, 20)) {
      const started = performance.now();
      await db.all(sql`SELECT page_id FROM page_vectors WHERE brain_id = ${brain.id} AND model = ${MODEL}
        ORDER BY vector_distance_cos(embedding, vector32(${JSON.stringify(Array.from(q.vector))})) LIMIT 10`);
      sqlTimes.push(performance.now() - started);
    }
    sqlTimes.sort((a, b) => a - b);
    console.log(`exact SQL vector_distance_cos       p50 ${percentile(sqlTimes, 50).toFixed(1)} ms (20 queries, vector part only)`);
    const { snapshot: live } = await retriever.vectors.search(brain.id, MODEL, queries[0]!.vector, 1);
    console.log(`vector snapshot size                ${((live?.bytes ?? 0) / 2 ** 20).toFixed(1)} MiB; load average ${(await import("node:os")).loadavg()[0]!.toFixed(2)}`);
  } finally {
    await running.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function dot(a: Float32Array, b: Float32Array) {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

