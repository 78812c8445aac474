// The ChatGPT connector tools against the per-brain tool: MCP `search` over every readable brain (B brains)
// and `fetch` of one result, beside `get_context` on one brain, through the official SDK client on loopback.
// Prints p50/p99 per tool and search's cost relative to get_context, measured side by side in one run.
// Usage: bun scripts/bench-mcp-search.ts [brains=10] [sourcesPerBrain=20] [calls=200]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { lastLine, runCli, spawnServer } from "../tests/support/cli";

const brainCount = Number(process.argv[2] ?? 10);
const perBrain = Number(process.argv[3] ?? 20);
const calls = Number(process.argv[4] ?? 200);
const dataDir = mkdtempSync(join(tmpdir(), "brainbox-mcp-search-"));
const env = { BRAINBOX_DATA_DIR: dataDir, BRAINBOX_AUTH_FAILURES_PER_MINUTE: "1000000" };
const key = lastLine((await runCli(["keys", "create", "--name", "bench"], env)).stdout);
const server = await spawnServer(env);
const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
const api = async (path: string, body?: unknown) =>
  (await (await fetch(`${server.url}${path}`, { method: body ? "POST" : "GET", headers, body: body ? JSON.stringify(body) : undefined })).json()) as any;

const topics = ["rivers", "volcanoes", "glaciers", "deserts", "forests", "oceans", "storms", "caves", "lakes", "reefs"];
const words = ["erosion", "sediment", "temperature", "pressure", "salinity", "vegetation", "rainfall", "wind", "ice", "lava"];
const text = (i: number) =>
  `Survey ${i} of the ${topics[i % 10]}: ${words[i % 10]} rose while ${words[(i + 3) % 10]} fell. ` +
  `Station ${i % 17} recorded ${i % 100} events and the team noted ${words[(i + 5) % 10]} near the ${topics[(i + 2) % 10]}.`;

const brains: string[] = [];
for (let b = 0; b < brainCount; b++) {
  const id = (await api("/api/v1/brains", { name: `Bench ${b}` })).brain.id;
  brains.push(id);
  for (let i = 0; i < perBrain; i++) await api(`/api/v1/brains/${id}/sources`, { title: `Survey ${b}-${i}`, content: text(b * perBrain + i) });
}
const started = Date.now();
for (;;) {
  const pending = (await Promise.all(brains.map(async (id) => (await api(`/api/v1/brains/${id}/sources`)).sources.filter((s: any) => s.status !== "ready").length))).reduce((a, b) => a + b, 0);
  if (pending === 0) break;
  if (Date.now() - started > 600_000) throw new Error(`${pending} sources still processing`);
  await Bun.sleep(500);
}

const client = new Client({ name: "bench", version: "1" });
await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
const queries = Array.from({ length: calls }, (_, i) => `${words[i % 10]} near the ${topics[(i * 3) % 10]} station ${i % 17}`);

const pct = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
async function call(name: string, args: Record<string, unknown>): Promise<{ ms: number; result: any }> {
  const t = performance.now();
  const result = (await client.callTool({ name, arguments: args })) as any;
  const ms = performance.now() - t;
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result)}`);
  return { ms, result };
}

// Background work (links between pages) may still run after the sources are ready: wait for the job queue.
for (let waited = 0; waited < 120_000; waited += 500) {
  const metrics = await (await fetch(`${server.url}/metrics`)).text();
  const busy = [...metrics.matchAll(/^brainbox_jobs\{status="(queued|running)"\} (\d+)/gm)].reduce((a, m) => a + Number(m[2]), 0);
  if (busy === 0) break;
  await Bun.sleep(500);
}
// Warm-up, then the three tools interleaved call by call, so load and caches hit them alike.
for (let i = 0; i < 20; i++) await call("search", { query: queries[i]! });
const first = JSON.parse((await call("search", { query: queries[0]! })).result.content[0].text).results[0].id;
const context: number[] = [];
const search: number[] = [];
const fetchTool: number[] = [];
for (let i = 0; i < calls; i++) {
  context.push((await call("get_context", { brainId: brains[i % brainCount]!, query: queries[i]! })).ms);
  search.push((await call("search", { query: queries[i]! })).ms);
  fetchTool.push((await call("fetch", { id: first })).ms);
}
for (const xs of [context, search, fetchTool]) xs.sort((a, b) => a - b);
await client.close();
await server.stop();
rmSync(dataDir, { recursive: true, force: true });

console.log(`${brainCount} brains x ${perBrain} sources, ${calls} calls each, MCP over loopback (SDK client), lexical retrieval`);
for (const [name, xs] of [["get_context (one brain)", context], [`search (all ${brainCount} brains)`, search], ["fetch (one page)", fetchTool]] as const)
  console.log(`${name.padEnd(26)} p50 ${pct(xs, 50).toFixed(1)} ms  p99 ${pct(xs, 99).toFixed(1)} ms`);
console.log(`search / get_context p50: ${(pct(search, 50) / pct(context, 50)).toFixed(2)}x`);
