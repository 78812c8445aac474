// The git part of scripts/bench-sync.ts: a repository of N Markdown files served over smart HTTP on loopback
// (`git http-backend`), synced by a git connector: first sync (clone, list, read every blob, add) to all
// ready; re-sync with nothing changed (HTTP requests, sources rewritten, ingest jobs, wall time); 1% changed.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { makeRepo, serveRepos } from "../tests/connectors/git-repo";

const words = ["river", "gauge", "weir", "silt", "delta", "tide", "sluice", "barrier", "estuary", "flood", "survey", "station"];
const fileOf = (n: number, rev: number) =>
  `# Station file ${n}\n\n` + Array.from({ length: 6 }, (_, i) => `File ${n} notes that the ${words[(n + i) % words.length]} near station ${n % 97} was checked (revision ${rev}, line ${i}).`).join(" ");
const pathOf = (n: number) => `docs/part-${Math.floor(n / 50)}/file-${n}.md`;

export function startGitBench(total: number) {
  const root = mkdtempSync(join(tmpdir(), "brainbox-sync-git-"));
  const repo = makeRepo(root, "bench", Object.fromEntries(Array.from({ length: total }, (_, n) => [pathOf(n), fileOf(n, 0)])));
  const http = serveRepos(root);
  return {
    url: `${http.url}/bench.git`,
    port: http.port,
    requests: http.requests,
    change: (ns: number[]) => repo.commit(Object.fromEntries(ns.map((n) => [pathOf(n), fileOf(n, 1)]))),
    stop() {
      http.stop();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

interface BenchApi {
  api(path: string, init?: RequestInit): Promise<any>;
  scalar(sql: string, ...args: (string | number)[]): Promise<number>;
  newBrain(name: string): Promise<string>;
  runOnce(brainId: string, cid: string): Promise<any>;
  untilReady(brainId: string, expected: number): Promise<void>;
}

export async function runGitBench(b: BenchApi, git: ReturnType<typeof startGitBench>, total: number): Promise<string[]> {
  const secs = (ms: number) => (ms / 1000).toFixed(2);
  const jobs = () => b.scalar("SELECT count(*) FROM jobs WHERE kind = 'ingest-source'");
  const brainId = await b.newBrain("Git");
  const { connector } = await b.api(`/api/v1/brains/${brainId}/connectors`, {
    method: "POST",
    body: JSON.stringify({ kind: "git", name: "Bench repo", schedule: "manual", config: { url: git.url, branch: "main", maxFiles: total } }),
  });
  let t = performance.now();
  const first = await b.runOnce(brainId, connector.id);
  const firstRunMs = performance.now() - t;
  await b.untilReady(brainId, total);
  const firstMs = performance.now() - t;

  const revisions = await b.scalar("SELECT sum(revision) FROM sources WHERE brain_id = ?", brainId);
  let jobsBefore = await jobs();
  let requestsBefore = git.requests.length;
  t = performance.now();
  const same = await b.runOnce(brainId, connector.id);
  const sameMs = performance.now() - t;
  const sameRequests = git.requests.length - requestsBefore;
  const rewritten = (await b.scalar("SELECT sum(revision) FROM sources WHERE brain_id = ?", brainId)) - revisions;
  const sameJobs = (await jobs()) - jobsBefore;

  const changed = Math.max(1, Math.round(total / 100));
  git.change(Array.from({ length: changed }, (_, i) => i * 100));
  jobsBefore = await jobs();
  requestsBefore = git.requests.length;
  t = performance.now();
  const some = await b.runOnce(brainId, connector.id);
  await b.untilReady(brainId, total);
  const someMs = performance.now() - t;
  return [
    `git: ${total} Markdown files, one commit, served by git http-backend on loopback (shallow clone into the data dir)`,
    `git first sync: ${secs(firstMs)} s to all ready, ${(total / (firstMs / 1000)).toFixed(0)} files ready/s; the run (clone, list, read, add) ${secs(firstRunMs)} s (counts ${JSON.stringify(first.counts)})`,
    `git re-sync, nothing changed: ${secs(sameMs)} s, ${sameRequests} HTTP requests to the forge, ${rewritten} sources rewritten, ${sameJobs} ingest jobs (counts ${JSON.stringify(same.counts)})`,
    `git re-sync, ${changed} changed: ${secs(someMs)} s to ready, ${git.requests.length - requestsBefore} HTTP requests, ${(await jobs()) - jobsBefore} ingest jobs (counts ${JSON.stringify(some.counts)})`,
  ];
}
