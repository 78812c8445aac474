// What one hostile or heavy upload does to a running server: for each document, a fresh server (a child
// process) is fed it while /api/health is polled every 100 ms and the child's resident memory is sampled;
// the child is killed if it passes 4 GB, or when the document has not settled within the time given.
// Prints, per document: the source's outcome, RSS before and at peak, the longest health stall and how
// many polls took over 1 s. `--root DIR` runs another checkout's server (e.g. the code before a change).
// Usage: bun scripts/bench-bombs.ts [--root DIR] [--seconds 120] [--only docx,pdf,entries,long]
import { rmSync } from "node:fs";
import { join } from "node:path";
import { docxBomb, docxWithManyEntries, longPdf, pdfBomb } from "../tests/support/bombs";
import { BUN, lastLine, ROOT, runCli, spawnServer } from "../tests/support/cli";
import { tempDir } from "../tests/support/temp-dirs";
import { rssOf, watchServer } from "../tests/support/watch-server";

const arg = (name: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const root = arg("root") ?? ROOT;
const seconds = Number(arg("seconds") ?? 120);
const only = arg("only")?.split(",");
const CEILING = 4 * 1024 ** 3;
const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
const command = [BUN, join(root, "src/main.ts")];

const cases = [
  { name: "docx", what: "DOCX, document.xml inflating to 1 GiB", file: "bomb.docx", type: DOCX, bytes: () => docxBomb(1024) },
  { name: "pdf", what: "PDF, one FlateDecode stream of 500 MiB", file: "bomb.pdf", type: "application/pdf", bytes: () => pdfBomb(500) },
  { name: "entries", what: "DOCX of 20,000 entries", file: "entries.docx", type: DOCX, bytes: () => docxWithManyEntries(20_000) },
  { name: "long", what: "legitimate PDF of 5,000 pages", file: "manual.pdf", type: "application/pdf", bytes: () => longPdf(5000) },
].filter((c) => !only || only.includes(c.name));

const mb = (bytes: number) => `${Math.round(bytes / 1e6)} MB`;
console.log(`server: ${root}; each document gets ${seconds} s; the server is killed past ${mb(CEILING)}`);
for (const c of cases) {
  const dataDir = tempDir();
  const env = { BRAINBOX_DATA_DIR: dataDir };
  const key = lastLine((await runCli(["keys", "create", "--name", "bench"], env, command)).stdout);
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  const server = await spawnServer(env, command);
  const brain = ((await (await fetch(`${server.url}/api/v1/brains`, { method: "POST", headers, body: JSON.stringify({ name: "Bench" }) })).json()) as any).brain.id;
  await Bun.sleep(1000);
  const idleRss = rssOf(server.proc.pid);
  const bytes = c.bytes();
  const watch = watchServer(server.url, server.proc.pid, CEILING);
  const started = performance.now();
  const ticket = (await (await fetch(`${server.url}/api/brains/${brain}/sources/upload-url`, { method: "POST", headers, body: JSON.stringify({ filename: c.file, contentType: c.type, size: bytes.byteLength }) })).json()) as any;
  await fetch(ticket.uploadUrl, { method: "PUT", body: new Blob([bytes as BlobPart]), headers: { "content-type": c.type } });
  let outcome = `not settled after ${seconds} s`;
  while (performance.now() - started < seconds * 1000) {
    if (watch.killed) {
      outcome = `killed at ${mb(CEILING)} after ${((performance.now() - started) / 1000).toFixed(1)} s`;
      break;
    }
    const res = await fetch(`${server.url}/api/v1/brains/${brain}/sources/${ticket.sourceId}`, { headers, signal: AbortSignal.timeout(2000) }).catch(() => null);
    const source = res?.ok ? ((await res.json()) as any).source : null;
    if (source && ["ready", "failed"].includes(source.status)) {
      outcome = `${source.status} in ${((performance.now() - started) / 1000).toFixed(1)} s${source.error ? `: ${source.error}` : ""}`;
      break;
    }
    await Bun.sleep(200);
  }
  await Bun.sleep(300);
  await watch.stop();
  await server.stop("SIGKILL");
  rmSync(dataDir, { recursive: true, force: true });
  console.log(`${c.what} (${(bytes.length / 1e6).toFixed(1)} MB upload): ${outcome}`);
  console.log(`  RSS idle ${mb(idleRss)}, peak ${mb(watch.peakRss)}; longest health stall ${Math.round(watch.longestHealthMs)} ms${watch.longestHealthMs >= 1000 ? " (timed out)" : ""}; ${watch.slowPolls}/${watch.polls} polls over 1 s`);
}
