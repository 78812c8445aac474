// Connector sync speed on a loopback site of N pages (default 1,000) listed by a sitemap, against a server
// in a child process: the first sync's pages ready per second beside the batch endpoint on the same
// documents in the same run (the ratio printed); a re-sync with nothing changed (requests made, 304s,
// sources rewritten, wall time); a re-sync with 1% changed (only those reprocessed). Then the same for a Git
// repository of N files over smart HTTP (scripts/bench-sync-git.ts).
// Usage: bun scripts/bench-sync.ts [pages=1000]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "../src/db/client";
import { lastLine, runCli, spawnServer } from "../tests/support/cli";
import { runGitBench, startGitBench } from "./bench-sync-git";

const total = Number(process.argv[2] ?? 1000);
const words = ["river", "gauge", "weir", "silt", "delta", "tide", "sluice", "barrier", "estuary", "flood", "survey", "station"];
const bodyOf = (n: number, rev: number) =>
  Array.from({ length: 6 }, (_, i) => `Page ${n} notes that the ${words[(n + i) % words.length]} near station ${n % 97} was checked (revision ${rev}, line ${i}).`).join(" ");
const revision = new Map<number, number>();
const etagOf = (n: number) => `"p${n}-r${revision.get(n) ?? 0}"`;
const counters = { pages: 0, notModified: 0, other: 0 };

const site = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch(req) {
    const path = new URL(req.url).pathname;
    if (path === "/robots.txt") return (counters.other++, new Response("User-agent: *\nAllow: /\n"));
    if (path === "/sitemap.xml") {
      counters.other++;
      const urls = Array.from({ length: total }, (_, n) => `<url><loc>http://${req.headers.get("host")}/p/${n}</loc></url>`).join("");
      return new Response(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls}</urlset>`, { headers: { "content-type": "application/xml" } });
    }
    const n = Number(path.slice(3));
    counters.pages++;
    if (req.headers.get("if-none-match") === etagOf(n)) return (counters.notModified++, new Response(null, { status: 304, headers: { etag: etagOf(n) } }));
    const html = `<html><head><title>Station page ${n}</title></head><body><article><h1>Station page ${n}</h1><p>${bodyOf(n, revision.get(n) ?? 0)}</p></article></body></html>`;
    return new Response(html, { headers: { "content-type": "text/html", etag: etagOf(n) } });
  },
});

const dataDir = mkdtempSync(join(tmpdir(), "brainbox-sync-"));
const gitRepo = startGitBench(total);
const env = { BRAINBOX_DATA_DIR: dataDir, BRAINBOX_FETCH_ALLOW_HOSTS: `127.0.0.1:${site.port},127.0.0.1:${gitRepo.port}`, BRAINBOX_CONNECTOR_SCHEDULER_MS: "1000" };
const key = lastLine((await runCli(["keys", "create", "--name", "bench"], env)).stdout);
const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
const server = await spawnServer(env);
const api = async (path: string, init: RequestInit = {}) => {
  const res = await fetch(`${server.url}${path}`, { ...init, headers });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as any;
};
const db = openDatabase({ dataDir });
const scalar = async (sql: string, ...args: (string | number)[]) => Number((await db.client.execute({ sql, args })).rows[0]![0]);
const newBrain = async (name: string) => (await api("/api/v1/brains", { method: "POST", body: JSON.stringify({ name }) })).brain.id as string;
const untilReady = async (brainId: string, expected: number) => {
  for (;;) {
    const ready = await scalar("SELECT count(*) FROM sources WHERE brain_id = ? AND status IN ('ready', 'failed')", brainId);
    const pending = await scalar("SELECT count(*) FROM sources WHERE brain_id = ? AND status NOT IN ('ready', 'failed')", brainId);
    if (ready >= expected && pending === 0) return;
    await Bun.sleep(100);
  }
};
const runOnce = async (brainId: string, cid: string) => {
  const { run } = await api(`/api/v1/brains/${brainId}/connectors/${cid}/sync`, { method: "POST" });
  for (;;) {
    const { runs } = await api(`/api/v1/brains/${brainId}/connectors/${cid}/runs?limit=1`);
    if (runs[0].id === run.id && !["queued", "running"].includes(runs[0].status)) return runs[0];
    await Bun.sleep(100);
  }
};
const secs = (ms: number) => (ms / 1000).toFixed(2);

// First sync: the connector fetches, extracts and adds every page; the clock stops when all are ready.
const syncBrain = await newBrain("Sync");
const { connector } = await api(`/api/v1/brains/${syncBrain}/connectors`, {
  method: "POST",
  body: JSON.stringify({ kind: "website", name: "Bench site", config: { sitemap: `http://127.0.0.1:${site.port}/sitemap.xml`, maxDepth: 0, maxPages: total, concurrencyPerHost: 4 } }),
});
let t = performance.now();
const first = await runOnce(syncBrain, connector.id);
await untilReady(syncBrain, total);
const syncMs = performance.now() - t;

// The batch endpoint on the same documents (their text), in batches of 500.
const batchBrain = await newBrain("Batch");
t = performance.now();
for (let i = 0; i < total; i += 500) {
  const sources = Array.from({ length: Math.min(500, total - i) }, (_, k) => ({ title: `Station page ${i + k}`, content: `# Station page ${i + k}\n\n${bodyOf(i + k, 0)}`, externalId: `p${i + k}` }));
  await api(`/api/v1/brains/${batchBrain}/sources/batch`, { method: "POST", body: JSON.stringify({ sources }) });
}
await untilReady(batchBrain, total);
const batchMs = performance.now() - t;

// Re-sync, nothing changed.
const revisionsBefore = await scalar("SELECT sum(revision) FROM sources WHERE brain_id = ?", syncBrain);
const jobsBefore = await scalar("SELECT count(*) FROM jobs WHERE kind = 'ingest-source'");
Object.assign(counters, { pages: 0, notModified: 0, other: 0 });
t = performance.now();
const same = await runOnce(syncBrain, connector.id);
const sameMs = performance.now() - t;
const sameRequests = { ...counters };
const rewritten = (await scalar("SELECT sum(revision) FROM sources WHERE brain_id = ?", syncBrain)) - revisionsBefore;
const sameJobs = (await scalar("SELECT count(*) FROM jobs WHERE kind = 'ingest-source'")) - jobsBefore;

// Re-sync, 1% changed.
const changed = Math.max(1, Math.round(total / 100));
for (let i = 0; i < changed; i++) revision.set(i * 100, 1);
Object.assign(counters, { pages: 0, notModified: 0, other: 0 });
const jobsBefore2 = await scalar("SELECT count(*) FROM jobs WHERE kind = 'ingest-source'");
t = performance.now();
const some = await runOnce(syncBrain, connector.id);
await untilReady(syncBrain, total);
const someMs = performance.now() - t;
const someJobs = (await scalar("SELECT count(*) FROM jobs WHERE kind = 'ingest-source'")) - jobsBefore2;

console.log(`pages: ${total} (sitemap, one host, concurrency 4)`);
const runMs = (r: any) => Date.parse(r.finishedAt) - Date.parse(r.startedAt);
console.log(`first sync: ${secs(syncMs)} s to all ready, ${(total / (syncMs / 1000)).toFixed(0)} pages ready/s; the run itself (fetch, extract, add) ${secs(runMs(first))} s (counts ${JSON.stringify(first.counts)}, ${first.requests} requests)`);
console.log(`batch endpoint, same documents: ${secs(batchMs)} s, ${(total / (batchMs / 1000)).toFixed(0)} sources ready/s`);
console.log(`ratio connector / batch: ${(batchMs / syncMs).toFixed(2)}`);
console.log(`re-sync, nothing changed: ${secs(sameMs)} s, ${sameRequests.pages} page requests (${sameRequests.notModified} answered 304) + ${sameRequests.other} robots/sitemap, ${rewritten} sources rewritten, ${sameJobs} ingest jobs (counts ${JSON.stringify(same.counts)})`);
console.log(`re-sync, ${changed} changed: ${secs(someMs)} s to ready, ${counters.pages} page requests (${counters.notModified} answered 304), ${someJobs} ingest jobs (counts ${JSON.stringify(some.counts)})`);
for (const line of await runGitBench({ api, scalar, newBrain, runOnce, untilReady }, gitRepo, total)) console.log(line);
await server.stop();
site.stop(true);
gitRepo.stop();
db.close();
rmSync(dataDir, { recursive: true, force: true });
