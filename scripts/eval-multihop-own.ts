// Multi-hop evaluation of the wiki (issue 13): bridge questions (the work's source names its designer, the
// designer's birthplace sits in another source) and comparison questions (two works of one designer, their
// years in two sources), with distractors, from scripts/eval-multihop.json (written for this). Loads
// the sources as text over HTTP, then asks every question on the unversioned surface twice: with link
// expansion (the default) and without (the retriever's `expand: false`).
// answered-and-correct: not thin, and the answer contains every expected string (the birthplace; for a
// comparison both years, the evidence a reader needs to compare). Even groups calibrate (`--decay a,b,c`
// tries link weights on them), odd groups report.
//   bun scripts/eval-multihop.ts --own [--decay 0.7,0.85,1] [--half calibrate|report|all] [--failures]
// --failures prints each question answered wrong or thin (with expansion), with its answer.
import type { Rerank } from "../src/retrieval/retriever";
import { expandAlongLinks } from "./legacy-expand";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { answerService } from "../src/modules/answer";
import { loadSources, pageSources, startEvalServer } from "./eval-common";

interface Question {
  id: string;
  type: "bridge" | "comparison" | "reworded";
  half: "calibrate" | "report";
  question: string;
  expect: string[];
  sources: string[];
}
const data = JSON.parse(readFileSync(join(import.meta.dir, "eval-multihop.json"), "utf8")) as {
  sources: { id: string; title: string; content: string }[];
  questions: Question[];
};
const arg = (name: string) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const decays = arg("--decay")?.split(",").map(Number);
const halfArg = arg("--half") ?? (decays ? "calibrate" : "all");
const showFailures = process.argv.includes("--failures");

const server = await startEvalServer();
try {
  const { brain } = await server.api("/api/v1/brains", { name: "Multihop" });
  const sourceOf = await loadSources(server, brain.id, data.sources.map((s) => ({ externalId: s.id, title: s.title, content: s.content })));
  const concepts = await server.api(`/api/v1/brains/${brain.id}/pages?kind=concept&limit=200`);
  console.log(`concept pages: ${concepts.pages.length}`);
  const slugSource = await pageSources(server, brain.id);
  const retriever = answerService(server.running.ctx).retriever as { retrieve: (input: any) => Promise<any> };
  const retrieve = retriever.retrieve.bind(retriever);
  // --decay runs the old hand-set expansion (legacy-expand.ts) at each decay; the default is the fitted ranker.
  const modes: { name: string; expand: boolean; rerank?: Rerank }[] = decays
    ? decays.map((decay) => ({ name: `old expansion, decay ${decay}`, expand: true, rerank: (db, blended, terms, stats) => expandAlongLinks(db, blended, terms, stats, decay) }))
    : [
        { name: "without expansion", expand: false },
        { name: "with expansion", expand: true },
      ];
  const halves = halfArg === "all" ? ["calibrate", "report"] : [halfArg];
  for (const half of halves) {
    const questions = data.questions.filter((q) => q.half === half);
    console.log(`\n${half} half: ${questions.length} questions (${questions.filter((q) => q.type === "bridge").length} bridge)`);
    for (const mode of modes) {
      retriever.retrieve = (input: any) => retrieve({ ...input, expand: mode.expand, rerank: mode.rerank });
      const tally = { bridge: [0, 0], comparison: [0, 0], reworded: [0, 0], bothCited: 0, thin: 0, bothRetrieved: 0 };
      for (const q of questions) {
        const answer = await server.api(`/api/brains/${brain.id}/ask`, { question: q.question });
        const text = String(answer.answerMd).toLowerCase();
        const correct = !answer.thin && q.expect.every((e) => text.includes(e.toLowerCase()));
        tally[q.type][0]! += correct ? 1 : 0;
        if (showFailures && !correct && mode.expand !== false) console.log(`    ✗ ${q.id} (${q.type}) ${q.question}\n      expected ${q.expect.join(", ")}; ${answer.thin ? "thin" : answer.answerMd.replace(/\s+/g, " ")}`);
        tally[q.type][1]! += 1;
        if (answer.thin) tally.thin++;
        const cited = new Set(answer.citations.map((c: any) => c.documentId));
        if (q.sources.every((s) => cited.has(sourceOf.get(s)))) tally.bothCited++;
        // Retrieval alone: are both facts' source pages among the pages /context returns (top 8)?
        const context = await server.api(`/api/brains/${brain.id}/context`, { query: q.question });
        const retrieved = new Set(context.pages.map((p: any) => slugSource.get(p.slug)));
        if (q.sources.every((s) => retrieved.has(sourceOf.get(s)))) tally.bothRetrieved++;
      }
      const pct = (n: number, d: number) => `${((100 * n) / d).toFixed(1)}%`;
      const [bc, bn] = tally.bridge;
      const [cc, cn] = tally.comparison;
      const [rc, rn] = tally.reworded;
      console.log(
        `  ${mode.name.padEnd(18)} answered-and-correct ${pct(bc! + cc! + rc!, bn! + cn! + rn!)} (bridge ${pct(bc!, bn!)}, comparison ${pct(cc!, cn!)}, reworded bridge ${pct(rc!, rn!)}); ` +
          `both sources cited ${pct(tally.bothCited, questions.length)}, retrieved ${pct(tally.bothRetrieved, questions.length)}; thin ${pct(tally.thin, questions.length)}`,
      );
    }
  }
  retriever.retrieve = retrieve;
} finally {
  await server.close();
}
