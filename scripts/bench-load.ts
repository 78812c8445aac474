// Load: 50 concurrent clients asking and adding sources for 60 s against one server process on loopback.
// Prints errors, p50/p99 latencies per operation and the server's memory over time.
// Usage: bun scripts/bench-load.ts [clients=50] [seconds=60]
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { lastLine, runCli, spawnServer } from "../tests/support/cli";

const clients = Number(process.argv[2] ?? 50);
const seconds = Number(process.argv[3] ?? 60);
const dataDir = mkdtempSync(join(tmpdir(), "brainbox-load-"));
const env = { BRAINBOX_DATA_DIR: dataDir, BRAINBOX_TEAM_QUOTA: "100000000", BRAINBOX_DAILY_QUOTA: "100000000", BRAINBOX_AUTH_FAILURES_PER_MINUTE: "1000000" };
const key = lastLine((await runCli(["keys", "create", "--name", "load"], env)).stdout);
const server = await spawnServer(env);
const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
const post = (path: string, body: unknown) => fetch(`${server.url}${path}`, { method: "POST", headers, body: JSON.stringify(body) });
const brain = ((await (await post("/api/v1/brains", { name: "Load" })).json()) as any).brain.id;

const topics = ["rivers", "volcanoes", "glaciers", "deserts", "forests", "oceans", "storms", "caves", "lakes", "reefs"];
const words = ["erosion", "sediment", "temperature", "pressure", "salinity", "vegetation", "rainfall", "wind", "ice", "lava"];
const text = (i: number) =>
  `Survey ${i} of the ${topics[i % 10]}: ${words[i % 10]} rose while ${words[(i + 3) % 10]} fell. ` +
  `Station ${i % 17} recorded ${i % 100} events and the team noted ${words[(i + 5) % 10]} near the ${topics[(i + 2) % 10]}.`;
for (let i = 0; i < 50; i++) await post(`/api/v1/brains/${brain}/sources`, { title: `Seed ${i}`, content: text(i) });

const latencies: Record<string, number[]> = { ask: [], addSource: [], context: [] };
const errors: string[] = [];
const rss: number[] = [];
const rssOf = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.proc.pid}/status`, "utf8"))?.[1] ?? 0) / 1024;
const sampler = setInterval(() => rss.push(rssOf()), 1000);
const deadline = Date.now() + seconds * 1000;
let counter = 1000;

async function client(id: number) {
  while (Date.now() < deadline) {
    const n = counter++;
    const op = n % 10 < 6 ? "ask" : n % 10 < 8 ? "context" : "addSource";
    const started = performance.now();
    let res: Response;
    try {
      if (op === "ask") res = await post(`/api/v1/brains/${brain}/ask`, { question: `What happened to ${words[n % 10]} near the ${topics[n % 10]}?` });
      else if (op === "context") res = await post(`/api/brains/${brain}/context`, { query: `${topics[n % 10]} ${words[(n + 1) % 10]}` });
      else res = await post(`/api/v1/brains/${brain}/sources`, { title: `Client ${id} note ${n}`, content: text(n) });
      await res.arrayBuffer();
      if (res.status >= 300) errors.push(`${op} ${res.status}`);
    } catch (e) {
      errors.push(`${op} ${(e as Error).message}`);
    }
    latencies[op]!.push(performance.now() - started);
  }
}
await Promise.all(Array.from({ length: clients }, (_, i) => client(i)));
clearInterval(sampler);
const backlog = await (await fetch(`${server.url}/metrics`)).text();
await server.stop();
rmSync(dataDir, { recursive: true, force: true });

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? 0;
console.log(`${clients} clients for ${seconds} s: ${Object.values(latencies).flat().length} requests, ${errors.length} errors`);
for (const [op, xs] of Object.entries(latencies))
  console.log(`${op.padEnd(10)} n=${String(xs.length).padStart(6)}  p50 ${pct(xs, 50).toFixed(1)} ms  p99 ${pct(xs, 99).toFixed(1)} ms  (${(xs.length / seconds).toFixed(0)}/s)`);
console.log(`server RSS MB: start ${rss[0]?.toFixed(0)}, max ${Math.max(...rss).toFixed(0)}, end ${rss.at(-1)?.toFixed(0)}`);
console.log(`job queue at the end: ${(/brainbox_jobs\{status="queued"\} (\d+)/.exec(backlog) ?? [])[1] ?? "?"} queued`);
if (errors.length) console.log("first errors:", errors.slice(0, 5));
