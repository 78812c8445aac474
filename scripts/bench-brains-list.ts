// GET /api/v1/brains while the database keeps changing (an import writes before nearly every request, so
// the in-memory copy of the list, src/db/read-cache.ts, is never reused): p50/p99 over real HTTP with one
// source row written before each request, at 10k and 100k sources in one brain (plus two small brains).
// Side by side in the same run: the same list with the database unchanged (served from memory), and
// GET /api/health (the edge's floor). Also times the source inserts themselves (rows/s, the cost a kept
// count adds to every insert).
//   bun scripts/bench-brains-list.ts [--sizes 10000,100000] [--seconds 3]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config";
import { createLogger } from "../src/lib/log";
import { startServer } from "../src/runtime";

const arg = (name: string, fallback: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1]! : fallback;
};
const SIZES = arg("sizes", "10000,100000").split(",").map(Number);
const SECONDS = Number(arg("seconds", "3"));
const ROWS = 500;

const work = mkdtempSync(join(tmpdir(), "brainbox-bench-brains-"));
const server = await startServer(loadConfig({ BRAINBOX_PORT: "0", BRAINBOX_DATA_DIR: join(work, "data"), BRAINBOX_LOG_LEVEL: "error" }), createLogger("error"));
const client = server.ctx.database.client;
const key = server.firstKey!.key;
const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
const newBrain = async (name: string) => (await (await fetch(`${server.url}/api/v1/brains`, { method: "POST", headers, body: JSON.stringify({ name }) })).json()).brain.id as string;
const big = await newBrain("Import target");
for (const name of ["Notes", "Papers"]) await newBrain(name);

let written = 0;
/** `n` source rows (as a batch import writes them: multi-row INSERTs of 500), returns rows/s. */
async function addSources(n: number): Promise<number> {
  const started = performance.now();
  const statements: { sql: string; args: string[] }[] = [];
  for (let i = 0; i < n; i += ROWS) {
    const rows = Array.from({ length: Math.min(ROWS, n - i) }, () => `bench-${written++}`);
    statements.push({
      sql: `INSERT INTO sources (id, brain_id, type, title, status, content) VALUES ${rows.map(() => "(?, ?, 'text', ?, 'ready', 'x')").join(", ")}`,
      args: rows.flatMap((id) => [id, big, id]),
    });
  }
  for (let i = 0; i < statements.length; i += 20) await client.batch(statements.slice(i, i + 20), "write");
  return n / ((performance.now() - started) / 1000);
}

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
async function measure(label: string, once: () => Promise<void>, before?: () => Promise<unknown>) {
  const times: number[] = [];
  const until = performance.now() + SECONDS * 1000;
  while ((performance.now() < until || times.length < 20) && times.length < 2000) {
    if (before) await before();
    const t = performance.now();
    await once();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  console.log(`  ${label.padEnd(46)} p50 ${percentile(times, 50).toFixed(3).padStart(7)} ms   p99 ${percentile(times, 99).toFixed(3).padStart(7)} ms   (${times.length} runs)`);
}
const get = (path: string) => async () => {
  const res = await fetch(server.url + path, { headers });
  if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
  await res.arrayBuffer();
};
const writeOne = () => client.execute({ sql: "INSERT INTO sources (id, brain_id, type, title, status, content) VALUES (?, ?, 'text', 't', 'ready', 'x')", args: [`one-${written++}`, big] });

try {
  let size = 0;
  for (const target of SIZES) {
    const rate = await addSources(target - size);
    size = target;
    console.log(`${size.toLocaleString("en")} sources in one brain (inserted at ${Math.round(rate).toLocaleString("en")} rows/s)`);
    await get("/api/v1/brains")(); // warm
    await measure("GET /api/health (floor)", get("/api/health"));
    await measure("GET /api/v1/brains, database unchanged", get("/api/v1/brains"));
    await measure("GET /api/v1/brains, a source written before each", get("/api/v1/brains"), writeOne);
    const listed = (await (await fetch(`${server.url}/api/v1/brains`, { headers })).json()).brains.find((b: any) => b.id === big).sourceCount;
    console.log(`  sourceCount listed ${listed}, rows ${(await client.execute({ sql: "SELECT count(*) AS n FROM sources WHERE brain_id = ?", args: [big] })).rows[0]!.n}`);
  }
} finally {
  await server.stop();
  rmSync(work, { recursive: true, force: true });
}
