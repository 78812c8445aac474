// The wiki graph endpoint at 10k and 100k pages in one brain, over real HTTP: the default graph (the 500
// best-connected pages and their edges), the same for one kind, and `around` a hub and a leaf at depth 1–3.
// Baseline, side by side in the same run and the same database: the raw SQL of reading 500 pages by
// primary key (what the default graph costs at the least: it returns 500 pages). Prints p50/p99 per line.
// The brain: 90% source pages, 10% concept pages; each source page links to three concepts (a few hubs
// named by thousands, a long tail) and one other source page; one in ten also links a missing page; a
// concept page links the pages that name it (its first five) and two related concepts.
//   bun scripts/bench-graph.ts [--sizes 10000,100000] [--seconds 3]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config";
import { createLogger } from "../src/lib/log";
import { startServer } from "../src/runtime";
import { mulberry32 } from "../tests/support/random";

const arg = (name: string, fallback: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1]! : fallback;
};
const SIZES = arg("sizes", "10000,100000").split(",").map(Number);
const SECONDS = Number(arg("seconds", "3"));
const ROWS = 400; // rows per multi-row INSERT

const random = mulberry32(11);
const work = mkdtempSync(join(tmpdir(), "brainbox-bench-graph-"));
const server = await startServer(loadConfig({ BRAINBOX_PORT: "0", BRAINBOX_DATA_DIR: join(work, "data"), BRAINBOX_LOG_LEVEL: "error" }), createLogger("error"));
const client = server.ctx.database.client;
const key = server.firstKey!.key;
const api = (path: string) => fetch(server.url + path, { headers: { authorization: `Bearer ${key}` } });
const created = await (await fetch(`${server.url}/api/v1/brains`, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: JSON.stringify({ name: "Graph bench" }) })).json();
const brainId: string = created.brain.id;

const isConcept = (i: number) => i % 10 === 0;
const slugOf = (i: number) => (isConcept(i) ? `concept-${i}` : `page-${i}`);
/** A concept index with a Zipf-like skew: concept 0 is named by about a tenth of the pages. */
const conceptFor = (n: number) => Math.floor(random() ** 3 * Math.max(1, Math.floor(n / 10))) * 10;

async function grow(from: number, to: number) {
  const statements: { sql: string; args: (string | number)[] }[] = [];
  for (let i = from; i < to; i += ROWS) {
    const rows = Array.from({ length: Math.min(ROWS, to - i) }, (_, k) => i + k);
    statements.push({
      sql: `INSERT INTO pages (id, brain_id, kind, slug, title, markdown) VALUES ${rows.map(() => "(?, ?, ?, ?, ?, ?)").join(", ")}`,
      args: rows.flatMap((r) => [r + 1, brainId, isConcept(r) ? "concept" : "source", slugOf(r), `Page ${r}`, `Text of page ${r}.`]),
    });
  }
  for (let i = 0; i < statements.length; i += 20) await client.batch(statements.slice(i, i + 20), "write");
  const links: [number, string][] = [];
  const mentionedBy = new Map<number, number[]>();
  for (let i = from; i < to; i++) {
    if (isConcept(i)) continue;
    for (let k = 0; k < 3; k++) {
      const concept = conceptFor(to);
      links.push([i + 1, slugOf(concept)]);
      const pages = mentionedBy.get(concept) ?? [];
      if (pages.length < 5) mentionedBy.set(concept, [...pages, i]);
    }
    links.push([i + 1, slugOf(Math.floor(random() * to))]);
    if (i % 10 === 1) links.push([i + 1, `missing-${i}`]);
  }
  // A concept page links the source pages that name it (its first few mentions) and two related concepts.
  for (let i = from; i < to; i++) {
    if (!isConcept(i)) continue;
    for (const page of mentionedBy.get(i) ?? []) links.push([i + 1, slugOf(page)]);
    for (let k = 0; k < 2; k++) links.push([i + 1, slugOf(conceptFor(to))]);
  }
  const linkStatements: { sql: string; args: (string | number)[] }[] = [];
  for (let i = 0; i < links.length; i += ROWS) {
    const rows = links.slice(i, i + ROWS);
    linkStatements.push({
      sql: `INSERT OR IGNORE INTO page_links (from_page_id, brain_id, to_slug) VALUES ${rows.map(() => "(?, ?, ?)").join(", ")}`,
      args: rows.flatMap(([id, to]) => [id, brainId, to]),
    });
  }
  for (let i = 0; i < linkStatements.length; i += 20) await client.batch(linkStatements.slice(i, i + 20), "write");
}

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Runs `once` for `SECONDS` (at least 10, at most 500 times) and prints p50/p99 in ms. */
async function measure(label: string, once: () => Promise<unknown>): Promise<number> {
  await once(); // warm
  const times: number[] = [];
  const until = performance.now() + SECONDS * 1000;
  while ((performance.now() < until || times.length < 10) && times.length < 500) {
    const t = performance.now();
    await once();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const p50 = percentile(times, 50);
  console.log(`  ${label.padEnd(44)} p50 ${p50.toFixed(2).padStart(8)} ms   p99 ${percentile(times, 99).toFixed(2).padStart(8)} ms   (${times.length} runs)`);
  return p50;
}

/** A write to the database (any): what the graph read after it cannot reuse. */
const write = () => client.execute({ sql: "UPDATE brains SET name = name WHERE id = ?", args: [brainId] });

async function graph(query: string) {
  const res = await api(`/api/v1/brains/${brainId}/graph${query}`);
  if (res.status !== 200) throw new Error(`graph${query}: ${res.status} ${await res.text()}`);
  return (await res.json()) as { nodes: unknown[]; edges: unknown[]; truncated: boolean };
}

let size = 0;
try {
  for (const target of SIZES) {
    const started = performance.now();
    await grow(size, target);
    size = target;
    console.log(`${size.toLocaleString("en")} pages (${(await client.execute("SELECT count(*) AS n FROM page_links")).rows[0]!.n} links), built in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const ids = Array.from({ length: 500 }, () => 1 + Math.floor(random() * size));
    const baseline = await measure("baseline: 500 pages by primary key (SQL)", () =>
      client.execute({ sql: `SELECT id, slug, title, kind FROM pages WHERE id IN (${ids.map(() => "?").join(",")})`, args: ids }),
    );
    const whole = await graph("");
    console.log(`  default graph: ${whole.nodes.length} nodes, ${whole.edges.length} edges, truncated ${whole.truncated}`);
    // Degrees are counted when read and the result kept while the database is unchanged: each line first
    // after a write (counted: what the first view after a change costs), then unchanged (kept).
    const p50 = await measure("GET /graph after a write (500 best-connected)", async () => graph((await write(), "")));
    console.log(`  ratio default graph after a write / baseline: ${(p50 / baseline).toFixed(1)}×`);
    await measure("GET /graph, brain unchanged", () => graph(""));
    await measure("GET /graph?kind=concept after a write", async () => graph((await write(), "?kind=concept")));
    await measure("GET /graph?limit=5000 after a write", async () => graph((await write(), "?limit=5000")));
    for (const depth of [1, 2, 3]) {
      await measure(`GET /graph?around=<hub concept>&depth=${depth}`, () => graph(`?around=concept-0&depth=${depth}`));
      await measure(`GET /graph?around=<leaf page>&depth=${depth}`, () => graph(`?around=page-${size - 1}&depth=${depth}`));
    }
  }
} finally {
  await server.stop();
  rmSync(work, { recursive: true, force: true });
}
