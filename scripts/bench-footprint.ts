// Footprint of the single executable: size, cold start (spawn -> first 200 from /api/health, new data dir
// each time) and idle RSS (after the start settles, no traffic), against the targets of issue 15 and,
// when given, a baseline binary measured side by side in the same run.
// Usage: bun scripts/bench-footprint.ts [binary=dist/brainbox (built if missing)] [baseline-binary] [runs=5]
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const binary = resolve(process.argv[2] ?? "dist/brainbox");
const baseline = process.argv[3] ? resolve(process.argv[3]) : undefined;
const runs = Number(process.argv[4] ?? 5);
const TARGETS = { sizeMiB: 160, coldStartMs: 1500, idleRssMB: 200 };

if (!existsSync(binary)) {
  const build = Bun.spawnSync([process.execPath, join(import.meta.dir, "build-binary.ts"), binary], { stdout: "inherit", stderr: "inherit" });
  if (build.exitCode !== 0) process.exit(1);
}

const freePort = () =>
  new Promise<number>((done) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
  });

const rssMB = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;

async function startOnce(path: string, idleMs: number): Promise<{ coldMs: number; rss: number }> {
  const dataDir = mkdtempSync(join(tmpdir(), "brainbox-footprint-"));
  const port = await freePort();
  const started = performance.now();
  // An empty folder as cwd and a minimal env: nothing but the binary is reachable.
  const proc = Bun.spawn([path, "serve"], {
    cwd: dataDir,
    env: { PATH: "/usr/bin:/bin", HOME: dataDir, BRAINBOX_DATA_DIR: join(dataDir, "data"), BRAINBOX_PORT: String(port) },
    stdout: "ignore",
    stderr: "ignore",
  });
  try {
    for (;;) {
      if (proc.exitCode !== null) throw new Error(`${path} exited with ${proc.exitCode}`);
      const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then((r) => r.status === 200, () => false);
      if (ok) break;
      if (performance.now() - started > 30_000) throw new Error(`${path} did not answer /api/health in 30 s`);
      await Bun.sleep(5);
    }
    const coldMs = performance.now() - started;
    await Bun.sleep(idleMs);
    return { coldMs, rss: rssMB(proc.pid) };
  } finally {
    proc.kill("SIGTERM");
    await proc.exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

interface Footprint {
  sizeMiB: number;
  coldStartMs: number;
  coldMaxMs: number;
  idleRssMB: number;
}

const fmt = (n: number, d = 1) => n.toFixed(d);
const binaries = [["brainbox", binary], ...(baseline ? [["baseline", baseline]] : [])] as [string, string][];
// Warm the page cache first, so cold start measures the process, not the disk; then alternate the
// binaries start by start, so a busy moment on the shared machine hits both alike.
for (const [, path] of binaries) await startOnce(path, 0);
const samples = binaries.map(() => ({ cold: [] as number[], rss: [] as number[] }));
for (let i = 0; i < runs; i++)
  for (const [k, [, path]] of binaries.entries()) {
    const r = await startOnce(path, i === 0 ? 3000 : 1000);
    samples[k]!.cold.push(r.coldMs);
    samples[k]!.rss.push(r.rss);
  }
const rows: [string, Footprint][] = binaries.map(([name, path], k) => [
  name,
  { sizeMiB: statSync(path).size / 2 ** 20, coldStartMs: median(samples[k]!.cold), coldMaxMs: Math.max(...samples[k]!.cold), idleRssMB: median(samples[k]!.rss) },
]);
console.log(`footprint (${runs} starts each, median; targets: <= ${TARGETS.sizeMiB} MiB, cold start <= ${TARGETS.coldStartMs} ms, idle RSS <= ${TARGETS.idleRssMB} MB)`);
for (const [name, m] of rows) {
  console.log(
    `${name.padEnd(9)} size ${fmt(m.sizeMiB)} MiB (${fmt((m.sizeMiB / TARGETS.sizeMiB) * 100, 0)}% of target)` +
      `  cold start ${fmt(m.coldStartMs, 0)} ms (max ${fmt(m.coldMaxMs, 0)}; ${fmt((m.coldStartMs / TARGETS.coldStartMs) * 100, 0)}% of target)` +
      `  idle RSS ${fmt(m.idleRssMB)} MB (${fmt((m.idleRssMB / TARGETS.idleRssMB) * 100, 0)}% of target)`,
  );
}
if (rows.length === 2) {
  const [a, b] = [rows[0]![1], rows[1]![1]];
  console.log(`brainbox / baseline: size ${fmt(a.sizeMiB / b.sizeMiB, 3)}x, cold start ${fmt(a.coldStartMs / b.coldStartMs, 2)}x, idle RSS ${fmt(a.idleRssMB / b.idleRssMB, 2)}x`);
}
const m = rows[0]![1];
const met = m.sizeMiB <= TARGETS.sizeMiB && m.coldStartMs <= TARGETS.coldStartMs && m.idleRssMB <= TARGETS.idleRssMB;
console.log(met ? "all footprint targets met" : "footprint targets NOT met");
