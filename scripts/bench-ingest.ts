// Ingestion throughput: pages embedded per second end to end (HTTP add → job loop → extraction →
// synthesis → embedding → guarded write → links) against the raw embedder on the same texts.
// Usage: bun scripts/bench-ingest.ts [sources=300] [modelsDir modelName]
// Without a model argument it builds a random model of BERT shape (hidden 384, 8 feed-forward blocks)
// whose cost per text on this machine (~55 texts/s at batch 32, ~50/s at batch 1, quiet) is close to a real
// small embedding model's (MiniLM measured 59 and 38): no real weights can be downloaded here.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadEmbedder } from "../src/ai/embedder";
import { loadConfig } from "../src/config";
import { createLogger } from "../src/lib/log";
import { startServer } from "../src/runtime";
import { buildTinyModel } from "../tests/support/tiny-model";

const count = Number(process.argv[2] ?? 200);
const work = mkdtempSync(join(tmpdir(), "brainbox-bench-"));
const modelsDir = process.argv[3] ?? join(work, "models");
const model = process.argv[4] ?? (await buildTinyModel(modelsDir, "bench-384x8", { hidden: 384, layers: 8 }));

const topics = ["rivers", "volcanoes", "glaciers", "deserts", "forests", "oceans", "storms", "caves"];
const texts = Array.from({ length: count }, (_, i) => {
  const t = topics[i % topics.length]!;
  return {
    title: `Field note ${i} on ${t}`,
    content: `Observation ${i}: the ${t} surveyed this season showed ${i % 7} notable changes. ` +
      `Teams measured temperature, flow and sediment at ${3 + (i % 5)} stations and compared them with earlier records. ` +
      `The report recommends repeating the survey next year.`,
  };
});

// Raw embedder: the same page texts the pipeline embeds, in its batch size.
const embedder = await loadEmbedder({ modelsDir, model });
const pageTexts = texts.map((t) => `${t.title}\n\n${t.content}`);
async function rawRate() {
  const t = performance.now();
  for (let i = 0; i < pageTexts.length; i += 32) await embedder.embed(pageTexts.slice(i, i + 32));
  return count / ((performance.now() - t) / 1000);
}
// Measured before and after the end-to-end run, averaged: a shared machine drifts.
const rawBefore = await rawRate();
let started = performance.now();

const config = loadConfig({
  BRAINBOX_PORT: "0",
  BRAINBOX_DATA_DIR: join(work, "data"),
  BRAINBOX_MODELS_DIR: modelsDir,
  BRAINBOX_EMBED_MODEL: model,
  BRAINBOX_LOG_LEVEL: "error",
  BRAINBOX_JOB_CONCURRENCY: process.env.CONCURRENCY ?? "4",
});
const server = await startServer(config, createLogger("error"));
const headers = { authorization: `Bearer ${server.firstKey!.key}`, "content-type": "application/json" };
const brain = (await (await fetch(`${server.url}/api/v1/brains`, { method: "POST", headers, body: JSON.stringify({ name: "Bench" }) })).json()) as any;
started = performance.now();
await Promise.all(
  texts.map((t) =>
    fetch(`${server.url}/api/v1/brains/${brain.brain.id}/sources`, { method: "POST", headers, body: JSON.stringify(t) }),
  ),
);
const accepted = performance.now();
for (;;) {
  const row = await server.ctx.database.client.execute("SELECT count(*) AS n FROM sources WHERE status IN ('ready', 'failed')");
  if (Number(row.rows[0]!.n) >= count) break;
  await Bun.sleep(20);
}
const seconds = (performance.now() - started) / 1000;
const vectors = Number((await server.ctx.database.client.execute("SELECT count(*) AS n FROM page_vectors")).rows[0]!.n);
const endToEnd = vectors / seconds;
await server.stop();
const rawPerSecond = (rawBefore + (await rawRate())) / 2;
rmSync(work, { recursive: true, force: true });

console.log(`sources: ${count} (accepted over HTTP in ${(accepted - started).toFixed(0)} ms)`);
console.log(`raw embedder: ${rawPerSecond.toFixed(1)} texts/s (model ${model}, batch 32, mean of a run before and after)`);
console.log(`end to end:   ${endToEnd.toFixed(1)} pages/s embedded (${vectors} pages in ${seconds.toFixed(2)} s)`);
console.log(`ratio:        ${((endToEnd / rawPerSecond) * 100).toFixed(0)}% of raw (target ≥ 80%)`);
