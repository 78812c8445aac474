// Tunes the hybrid blend weight of the configured embedding model (BRAINBOX_EMBED_MODEL) on ClapNQ: all
// passages loaded over HTTP, the answerable questions' gold pages as relevance. Even-numbered questions
// tune (MRR@10 of the gold page per vector weight 0…1), odd ones check. Prints the entry for
// src/retrieval/blend-weights.ts.
//   BRAINBOX_MODELS_DIR=... BRAINBOX_EMBED_MODEL=Xenova/bge-small-en-v1.5 bun scripts/eval-blend.ts
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { EVAL_DIR, loadSources, pageSources, startEvalServer } from "./eval-common";
import { answerService } from "../src/modules/answer";

const server = await startEvalServer();
try {
  const embedder = server.running.ctx.ai.embedder;
  if (!embedder) throw new Error("no embedding model loaded: set BRAINBOX_MODELS_DIR and BRAINBOX_EMBED_MODEL");
  const read = (file: string) =>
    readFileSync(join(EVAL_DIR, "clapnq", file), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
  const rows = [...read("dev_answerable.jsonl").map((r: any) => ({ ...r, answerable: true })), ...read("dev_unanswerable.jsonl")];
  const { brain } = await server.api("/api/v1/brains", { name: "Blend" });
  const sourceOf = await loadSources(server, brain.id, rows.map((r: any) => ({ externalId: r.id, title: r.passages[0].title, content: r.passages[0].text })));
  const slugSource = await pageSources(server, brain.id);
  const questions = rows.filter((r: any) => r.answerable).map((r: any) => ({ question: r.input as string, gold: sourceOf.get(r.id)! }));
  const retriever = answerService(server.running.ctx).retriever;

  const mrr = async (weight: number, among: typeof questions) => {
    let sum = 0;
    for (const q of among) {
      const { pages } = await retriever.retrieve({ brains: [{ id: brain.id }], query: q.question, limit: 10, vectorWeight: weight });
      const rank = pages.findIndex((p) => slugSource.get(p.slug) === q.gold);
      if (rank >= 0) sum += 1 / (rank + 1);
    }
    return sum / among.length;
  };
  const tune = questions.filter((_, i) => i % 2 === 0);
  const check = questions.filter((_, i) => i % 2 === 1);
  let best = { weight: 0, score: -1 };
  for (let w = 0; w <= 1.0001; w += 0.1) {
    const weight = +w.toFixed(1);
    const score = await mrr(weight, tune);
    console.log(`vector weight ${weight.toFixed(1)}: MRR@10 ${score.toFixed(3)}`);
    if (score > best.score) best = { weight, score };
  }
  console.log(`\nheld-out MRR@10: lexical ${(await mrr(0, check)).toFixed(3)}, blend ${best.weight} ${(await mrr(best.weight, check)).toFixed(3)}`);
  console.log(`\nblend-weights.ts entry:\n  ${JSON.stringify(embedder.model)}: { vectorWeight: ${best.weight}, tunedOn: "ClapNQ dev answerable, even half, MRR@10 ${best.score.toFixed(3)}, ${new Date().toISOString().slice(0, 10)}" },`);
} finally {
  await server.close();
}
