// What a backup and a restore of a large data dir cost: a database filled with pages (full-text index
// included) and an uploads folder, then `writeBackup` timed while a 10 ms timer on the main thread measures
// how long the event loop is held (what HTTP requests would wait), with the resident memory sampled; then
// `restoreBackup` into an empty dir. Prints one JSON line.
// Usage: bun scripts/bench-backup.ts [--mb 200] [--uploads-mb 50]
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { migrate, openDatabase } from "../src/db/client";
import { writeBackup } from "../src/modules/backups/create";
import { restoreBackup } from "../src/modules/backups/restore";
import { tempDir } from "../tests/support/temp-dirs";

const arg = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const MB = 1024 * 1024;
const dbMb = arg("mb", 200);
const uploadsMb = arg("uploads-mb", 50);
const root = tempDir();
const dataDir = join(root, "data");

async function fill() {
  const database = openDatabase({ dataDir });
  await migrate(database.client);
  await database.client.execute("INSERT INTO accounts (id, name, plan_id) VALUES ('acc_bench', 'Bench', 'team')");
  await database.client.execute("INSERT INTO brains (id, account_id, name, slug) VALUES ('brn_bench', 'acc_bench', 'Bench', 'bench')");
  const words = "harbour ferry tide pilot island lighthouse channel buoy anchor mooring chart beacon".split(" ");
  const markdown = (i: number) => Array.from({ length: 400 }, (_, k) => words[(i * 7 + k * 13) % words.length]).join(" ") + ` page ${i}.`;
  const perPage = markdown(0).length * 3; // the text, its search text and the full-text index
  const pages = Math.ceil((dbMb * MB) / perPage);
  for (let at = 0; at < pages; at += 500) {
    const rows = Array.from({ length: Math.min(500, pages - at) }, (_, k) => [`page-${at + k}`, `Page ${at + k}`, markdown(at + k)]);
    await database.client.execute({
      sql: "INSERT INTO pages (brain_id, kind, slug, title, markdown, search_text) SELECT 'brn_bench', 'note', j.value ->> 0, j.value ->> 1, j.value ->> 2, j.value ->> 2 FROM json_each(?) j",
      args: [JSON.stringify(rows)],
    });
  }
  database.close();
  const dir = join(dataDir, "uploads/brains/brn_bench/sources");
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < uploadsMb * 4; i++) writeFileSync(join(dir, `file-${i}.bin`), new Uint8Array(256 * 1024).fill(i % 251));
  return pages;
}

function watchLoop() {
  let last = performance.now();
  let maxLagMs = 0;
  let peakRss = process.memoryUsage.rss();
  const timer = setInterval(() => {
    const now = performance.now();
    maxLagMs = Math.max(maxLagMs, now - last - 10);
    last = now;
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
  }, 10);
  return () => (clearInterval(timer), { maxLagMs: Math.round(maxLagMs), peakRss });
}

const pages = await fill();
const rssBefore = process.memoryUsage.rss();
const out = join(root, "backup.tar");
const stop = watchLoop();
let started = performance.now();
const { size, manifest } = await writeBackup({ databaseFile: join(dataDir, "brainbox.db"), uploadsDir: join(dataDir, "uploads"), appVersion: "bench" }, out);
const backupSeconds = (performance.now() - started) / 1000;
const during = stop();
started = performance.now();
await restoreBackup(out, join(root, "restored"));
const restoreSeconds = (performance.now() - started) / 1000;
const dbBytes = manifest.files.find((f) => f.path === "brainbox.db")!.size;
console.log(
  JSON.stringify({
    pages,
    databaseMb: +(dbBytes / MB).toFixed(1),
    uploads: manifest.files.length - 1,
    archiveMb: +(size / MB).toFixed(1),
    backupSeconds: +backupSeconds.toFixed(2),
    backupMbPerSecond: +(size / MB / backupSeconds).toFixed(1),
    restoreSeconds: +restoreSeconds.toFixed(2),
    mainThreadMaxStallMs: during.maxLagMs,
    rssGrowthMb: +((during.peakRss - rssBefore) / MB).toFixed(1),
  }),
);
rmSync(root, { recursive: true, force: true });
