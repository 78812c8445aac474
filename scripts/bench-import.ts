// Ingestion as a brain grows, lexical only (no embedding model): text sources posted over real HTTP into ONE
// brain, timed from the first POST of a segment until every source of it is ready (pages written and
// searchable) and until it is settled (no ingest job left: the last lone concepts merged, their concept pages
// made), at checkpoints (default 1k, 5k, 20k, 50k sources). Beside it, in the same run: a bare FTS5 table indexing the same
// documents (the baseline the ratio is against), and ask latency measured while the import runs (the job
// loop must not starve the HTTP edge).
//   bun scripts/bench-import.ts [--sizes 1000,5000,20000,50000] [--mode batch|single] [--asks true|false] [--idle SECONDS]
// --mode batch posts 1,000 sources per POST /api/v1/brains/{id}/sources/batch; single posts one source per
// request, 16 requests in flight (how the issue measured 34/s). --idle keeps the settled server idle that long
// and prints the process's RSS each minute (whether the memory an import used is given back).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@libsql/client";
import { loadConfig } from "../src/config";
import { createLogger } from "../src/lib/log";
import { startServer } from "../src/runtime";
import { syntheticAbstracts, words } from "./synthetic-abstracts";
import { runtimeEnvLine } from "./runtime-env";


const arg = (name: string, fallback: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1]! : fallback;
};
const SIZES = arg("sizes", "1000,5000,20000,50000").split(",").map(Number);
const MODE = arg("mode", "batch");
const ASKS = arg("asks", "true") === "true";
const IDLE_SECONDS = Number(arg("idle", "0"));
const TOTAL = SIZES.at(-1)!;
const BATCH = 1000;
const IN_FLIGHT = 16;

const { documents, random } = syntheticAbstracts(7, TOTAL);
const questions = Array.from({ length: 200 }, () => `what is known about ${words[60 + Math.floor(random() * 3000)]} ${words[60 + Math.floor(random() * 3000)]}?`);

// CPU time, which a shared machine's load inflates far less than wall time: the main thread's (HTTP, job loop,
// database writes) and the whole process's (with the concept extraction threads), from /proc, in ms.
function cpuMs(): { main: number; all: number } {
  const ticks = (stat: string) => {
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10; // utime + stime, at 100 ticks a second
  };
  try {
    return { main: ticks(readFileSync(`/proc/self/task/${process.pid}/stat`, "utf8")), all: ticks(readFileSync("/proc/self/stat", "utf8")) };
  } catch {
    return { main: NaN, all: NaN }; // not Linux
  }
}

/** Bytes this process handed to write() (the database file, its log, the bench's own probes): /proc/self/io. */
function bytesWritten(): number {
  const io = readFileSync("/proc/self/io", "utf8");
  return Number(/^wchar: (\d+)/m.exec(io)?.[1] ?? 0);
}

/** CPU ms per thread name (PROFILE: which threads the whole-process CPU goes to). */
function threadCpu(): Map<string, number> {
  const out = new Map<string, number>();
  try {
    for (const task of readdirSync("/proc/self/task")) {
      const stat = readFileSync(`/proc/self/task/${task}/stat`, "utf8");
      // Worker threads all have one name: told apart by thread id (the extraction and checkpoint threads).
      const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const name = `${comm}${task === String(process.pid) ? " (main)" : comm === "Worker" ? ` ${task}` : ""}`;
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      out.set(name, (out.get(name) ?? 0) + (Number(fields[11]) + Number(fields[12])) * 10);
    }
  } catch {
    // not Linux
  }
  return out;
}

function percentile(sorted: number[], p: number) {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : NaN;
}

// Baseline: a bare FTS5 table (the same tokenizer as pages_fts) indexing the same documents, one transaction.
async function bareFts(count: number): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), "brainbox-fts-"));
  const client = createClient({ url: `file:${join(dir, "fts.db")}` });
  try {
    await client.execute("PRAGMA journal_mode=WAL");
    await client.execute("CREATE VIRTUAL TABLE docs USING fts5(title, body, tokenize='porter unicode61 remove_diacritics 2')");
    const started = performance.now();
    for (let i = 0; i < count; i += BATCH) {
      await client.batch(
        documents.slice(i, Math.min(count, i + BATCH)).map((d) => ({ sql: "INSERT INTO docs (title, body) VALUES (?, ?)", args: [d.title, d.content] })),
        "write",
      );
    }
    return count / ((performance.now() - started) / 1000);
  } finally {
    client.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

// Measured before and after the import and averaged: the shared machine's load drifts during a long run.
const bareBefore = await bareFts(TOTAL);
const work = mkdtempSync(join(tmpdir(), "brainbox-import-"));
const config = loadConfig({
  BRAINBOX_PORT: "0",
  BRAINBOX_DATA_DIR: join(work, "data"),
  BRAINBOX_LOG_LEVEL: "error",
  // A batch of 1,000 abstracts is ~1.5 MB of JSON; the default cap (1 MiB) is for single requests.
  BRAINBOX_MAX_BODY_BYTES: String(8 * 1024 * 1024),
  ...(process.env.CONCURRENCY ? { BRAINBOX_JOB_CONCURRENCY: process.env.CONCURRENCY } : {}),
  ...(process.env.NLP_THREADS ? { BRAINBOX_NLP_THREADS: process.env.NLP_THREADS } : {}),
});
const server = await startServer(config, createLogger("error"));
// PROFILE=1: time spent per SQL statement shape (a batch by its first statement), printed after each segment.
// A time runs until the caller resumes, so it also counts whatever other work ran first (marking jobs done
// showed 4-40 ms a call at 20k-50k sources, with or without the writer's own checkpoints).
const sqlTimes = new Map<string, { n: number; ms: number }>();
if (process.env.PROFILE) {
  const client = server.ctx.database.client;
  const shape = (s: string) => s.replace(/\s+/g, " ").slice(0, 150);
  const note = (key: string, ms: number) => {
    const e = sqlTimes.get(key) ?? { n: 0, ms: 0 };
    e.n++;
    e.ms += ms;
    sqlTimes.set(key, e);
  };
  const execute = client.execute.bind(client);
  client.execute = (async (stmt: any) => {
    const t = performance.now();
    try {
      return await execute(stmt);
    } finally {
      note(shape(typeof stmt === "string" ? stmt : stmt.sql), performance.now() - t);
    }
  }) as typeof client.execute;
  const batch = client.batch.bind(client);
  client.batch = (async (stmts: any[], mode?: any) => {
    const t = performance.now();
    try {
      return await batch(stmts, mode);
    } finally {
      note(`batch[${stmts.length > 20 ? "20+" : stmts.length}] ${shape(typeof stmts[0] === "string" ? stmts[0] : stmts[0]?.sql ?? "")}`, performance.now() - t);
    }
  }) as typeof client.batch;
}
function printProfile() {
  for (const [k, v] of [...sqlTimes].sort((a, b) => b[1].ms - a[1].ms).slice(0, 45))
    console.log(`${v.ms.toFixed(0).padStart(7)} ms ${String(v.n).padStart(7)}× ${(v.ms / v.n).toFixed(3).padStart(8)} ms  ${k}`);
  sqlTimes.clear();
}
// FTS_CONFIG="automerge=2,usermerge=2": FTS5 options tried on pages_fts for this run only.
for (const option of (process.env.FTS_CONFIG ?? "").split(",").filter(Boolean)) {
  const [name, value] = option.split("=");
  if (!/^[a-z-]+$/.test(name!) || !Number.isInteger(Number(value))) throw new Error(`FTS_CONFIG: bad option ${option}`);
  // FTS5 takes its commands as literals (a bound command name is an error).
  await server.ctx.database.client.execute(`INSERT INTO pages_fts(pages_fts, rank) VALUES ('${name}', ${Number(value)})`);
}
// PRAGMAS="wal_autocheckpoint=10000": connection pragmas tried for this run only.
for (const option of (process.env.PRAGMAS ?? "").split(",").filter(Boolean)) {
  if (!/^[a-z_]+=-?\d+$/.test(option)) throw new Error(`PRAGMAS: bad option ${option}`);
  await server.ctx.database.client.execute(`PRAGMA ${option}`);
}
const headers = { authorization: `Bearer ${server.firstKey!.key}`, "content-type": "application/json" };
const call = (path: string, body: unknown) => fetch(`${server.url}${path}`, { method: "POST", headers, body: JSON.stringify(body) });
const { brain } = (await (await call("/api/v1/brains", { name: "Import bench" })).json()) as { brain: { id: string } };

/** The ids of the sources a segment posted, in order (for `unready`). */
let posted: string[] = [];

async function post(from: number, to: number) {
  posted = [];
  if (MODE === "batch") {
    for (let i = from; i < to; i += BATCH) {
      const res = await call(`/api/v1/brains/${brain.id}/sources/batch`, { sources: documents.slice(i, Math.min(to, i + BATCH)) });
      if (res.status !== 200) throw new Error(`batch: ${res.status} ${await res.text()}`);
      const { results } = (await res.json()) as { results: { source: { id: string } }[] };
      posted.push(...results.map((r) => r.source.id));
    }
    return;
  }
  let next = from;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < to) {
        const at = next++;
        const res = await call(`/api/v1/brains/${brain.id}/sources`, documents[at]);
        if (res.status !== 201) throw new Error(`single: ${res.status} ${await res.text()}`);
        posted[at - from] = ((await res.json()) as { source: { id: string } }).source.id;
      }
    }),
  );
}

// Whether every source a segment posted is ready (its pages written and searchable), read by primary key from
// the first one not yet seen ready: sources are taken in order, so each poll reads a few hundred rows at most,
// and stops at the first one not ready (json_each gives its rows in order: no sort that would read all 500).
let readyUpTo = 0;
async function unready(): Promise<number> {
  while (readyUpTo < posted.length) {
    const ids = posted.slice(readyUpTo, readyUpTo + 500);
    const rows = await server.ctx.database.client.execute({
      sql: "SELECT j.key AS at FROM json_each(?) j CROSS JOIN sources s ON s.id = j.value WHERE s.status NOT IN ('ready', 'failed') LIMIT 1",
      args: [JSON.stringify(ids)],
    });
    if (rows.rows.length) {
      readyUpTo += Number(rows.rows[0]!.at);
      return posted.length - readyUpTo;
    }
    readyUpTo += ids.length;
  }
  return 0;
}

// Done when no ingest job waits or runs: one probe of the claim index, so polling costs nothing as the brain
// grows (counting ready sources scans the brain's sources: 20 times a second, that alone slowed 20k+ runs;
// counting the waiting jobs took 0.8 ms a poll at 20k-50k, ~1% of the main thread).
async function jobsPending(): Promise<boolean> {
  const row = await server.ctx.database.client.execute("SELECT EXISTS (SELECT 1 FROM jobs WHERE status IN ('queued', 'running')) AS pending");
  return Number(row.rows[0]!.pending) === 1;
}

// Asks while the import runs: one at a time, 200 ms apart, as a user would.
let asking = ASKS;
let askTimes: number[] = [];
const askStatuses = new Map<number, number>();
const asker = (async () => {
  for (let i = 0; asking; i++) {
    const started = performance.now();
    const res = await call(`/api/v1/brains/${brain.id}/ask`, { question: questions[i % questions.length] });
    await res.arrayBuffer();
    askTimes.push(performance.now() - started);
    askStatuses.set(res.status, (askStatuses.get(res.status) ?? 0) + 1);
    await Bun.sleep(200);
  }
})();

console.log(`mode ${MODE}, job concurrency ${config.jobConcurrency}, ${TOTAL} documents of ~200 words, lexical only, ${runtimeEnvLine()}`);
console.log("segment          POST s   ready s   settled s   sources/s ready / settled   ask p50 / p99 ms (n)   CPU ms/source: main thread, all   host probe: bare FTS5 docs/s, sources/s per 1,000 of it");
// Two rates a segment: to ready (every source's pages written and searchable: what the issue measures) and to
// settled (no ingest job left: the lone concepts of the last sources merged and their concept pages made).
const rates: number[] = [];
const readyRates: number[] = [];
// The host's speed drifts during a long run (a shared machine): after each segment a bare FTS5 table indexes
// the same first documents, and the segment's rate is also given per 1,000 docs/s of that probe.
const PROBE_DOCS = Math.min(TOTAL, 5000);
const relativeRates: number[] = [];
// The wiki's work per source: concept pages created, and concept-page writes (creations plus rewrites; each
// write bumps a page's revision). It grows with the brain as more of a new source's phrases recur.
async function conceptWork(): Promise<{ pages: number; writes: number }> {
  const row = await server.ctx.database.client.execute({
    sql: "SELECT count(*) AS pages, coalesce(sum(revision), 0) AS writes FROM pages WHERE brain_id = ? AND kind = 'concept'",
    args: [brain.id],
  });
  return { pages: Number(row.rows[0]!.pages), writes: Number(row.rows[0]!.writes) };
}
let wikiBefore = { pages: 0, writes: 0 };
let done = 0;
for (const size of SIZES) {
  askTimes = [];
  const cpuBefore = cpuMs();
  const writtenBefore = bytesWritten();
  const threadsBefore = process.env.PROFILE ? threadCpu() : new Map<string, number>();
  const started = performance.now();
  await post(done, size);
  const postedAt = performance.now();
  readyUpTo = 0;
  let readyAt = 0;
  while (await jobsPending()) {
    if (!readyAt && (await unready()) === 0) readyAt = performance.now();
    await Bun.sleep(100);
  }
  const settledAt = performance.now();
  if (!readyAt) readyAt = settledAt;
  const seconds = (settledAt - started) / 1000;
  const rate = (size - done) / seconds;
  rates.push(rate);
  readyRates.push((size - done) / ((readyAt - started) / 1000));
  const sorted = [...askTimes].sort((a, b) => a - b);
  const cpu = `${((cpuMs().main - cpuBefore.main) / (size - done)).toFixed(2)}, ${((cpuMs().all - cpuBefore.all) / (size - done)).toFixed(2)}`;
  const threads = process.env.PROFILE ? threadCpu() : new Map<string, number>(); // before the probe's own work
  const written = bytesWritten() - writtenBefore;
  const probe = await bareFts(PROBE_DOCS);
  relativeRates.push((rate / probe) * 1000);
  console.log(
    `${`${done}→${size}`.padEnd(16)} ${((postedAt - started) / 1000).toFixed(1).padStart(6)}   ${((readyAt - started) / 1000).toFixed(1).padStart(7)}   ${seconds.toFixed(1).padStart(9)}   ${readyRates.at(-1)!.toFixed(0).padStart(7)} / ${rate.toFixed(0).padEnd(7)}   ` +
      `${`${percentile(sorted, 50).toFixed(0)} / ${percentile(sorted, 99).toFixed(0)} (${sorted.length})`.padEnd(22)} ${cpu.padEnd(33)} ${probe.toFixed(0)}, ${relativeRates.at(-1)!.toFixed(1)}`,
  );
  const wikiAfter = await conceptWork();
  const n = size - done;
  console.log(`  wiki: concept pages created ${((wikiAfter.pages - wikiBefore.pages) / n).toFixed(2)}/source, concept-page writes ${((wikiAfter.writes - wikiBefore.writes) / n).toFixed(2)}/source (${wikiAfter.pages} concept pages); process RSS ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB, written ${(written / 1024 / n).toFixed(0)} KiB/source`);
  wikiBefore = wikiAfter;
  if (process.env.PROFILE) {
    const per = [...threads].map(([name, ms]) => [name, (ms - (threadsBefore.get(name) ?? 0)) / (size - done)] as const);
    const busiest = per.filter(([, ms]) => ms >= 0.01).sort((a, b) => b[1] - a[1]);
    // A thread's share of the segment's time on a core: below ~90% it waited for work (the extraction thread
    // starved while the main thread ran long synchronous writes), not for a core.
    const busy = busiest.slice(0, 2).map(([n, ms]) => `${n} ${((ms * (size - done)) / (seconds * 10)).toFixed(0)}%`);
    console.log(`CPU ms/source by thread: ${busiest.map(([n, ms]) => `${n} ${ms.toFixed(2)}`).join(", ")}; busy: ${busy.join(", ")} of the segment`);
    printProfile();
  }
  done = size;
}
asking = false;
await asker;
const rssMiB = () => (process.memoryUsage().rss / 2 ** 20).toFixed(0);
console.log(`process RSS at the end of the import: ${rssMiB()} MiB`);
for (let idle = 0; idle < IDLE_SECONDS; ) {
  const step = Math.min(60, IDLE_SECONDS - idle);
  await Bun.sleep(step * 1000);
  idle += step;
  console.log(`process RSS after ${idle} s idle: ${rssMiB()} MiB`);
}
const failed = Number((await server.ctx.database.client.execute("SELECT count(*) AS n FROM sources WHERE status = 'failed'")).rows[0]!.n);
const ready = Number((await server.ctx.database.client.execute("SELECT count(*) AS n FROM sources WHERE status = 'ready'")).rows[0]!.n);
const pages = Number((await server.ctx.database.client.execute("SELECT count(*) AS n FROM pages")).rows[0]!.n);
// Work a settled import should not leave behind: concepts still marked dirty, lone rows not merged (a page count
// one lower than other runs' was seen once in nine 50k runs: these tell whether a refresh was missed).
const left = (await server.ctx.database.client.execute("SELECT (SELECT count(*) FROM concept_dirty) AS dirty, (SELECT count(*) FROM concept_lone l CROSS JOIN brain_numbers n ON n.brain_id = l.brain_id WHERE l.id > n.lone_merged_through) AS unmerged")).rows[0]!;
await server.stop();
if (process.env.KEEP) console.log(`kept ${work}`);
else rmSync(work, { recursive: true, force: true });

const bareAfter = await bareFts(TOTAL);
const bare = (bareBefore + bareAfter) / 2;
const overallOf = (list: number[]) => TOTAL / list.reduce((s, r, i) => s + (SIZES[i]! - (SIZES[i - 1] ?? 0)) / r, 0);
const overall = overallOf(rates);
const overallReady = overallOf(readyRates);
console.log(`sources ready: ${ready} of ${TOTAL}, failed: ${failed}, pages: ${pages}, left dirty: ${left.dirty}, unmerged: ${left.unmerged}, ask statuses: ${JSON.stringify(Object.fromEntries(askStatuses))}`);
console.log(`bare FTS5 table, same ${TOTAL} documents: ${bare.toFixed(0)} docs/s (before ${bareBefore.toFixed(0)}, after ${bareAfter.toFixed(0)})`);
console.log(`brainbox overall, to ready: ${overallReady.toFixed(0)} sources/s = ${((overallReady / bare) * 100).toFixed(1)}% of bare FTS5 (target ≥ 500/s); flatness ${((readyRates.at(-1)! / readyRates[0]!) * 100).toFixed(0)}%`);
console.log(`brainbox overall, to settled (each segment's last concept pages made): ${overall.toFixed(0)} sources/s = ${((overall / bare) * 100).toFixed(1)}% of bare FTS5`);
console.log(`flatness to settled: last segment ${rates.at(-1)!.toFixed(0)}/s vs first ${rates[0]!.toFixed(0)}/s = ${((rates.at(-1)! / rates[0]!) * 100).toFixed(0)}% (target ≥ 80%)`);
console.log(`flatness per host probe: ${((relativeRates.at(-1)! / relativeRates[0]!) * 100).toFixed(0)}% (each segment's rate per 1,000 docs/s of a bare FTS5 table indexing ${PROBE_DOCS} documents right after it)`);
