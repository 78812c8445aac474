// SQuAD 2.0 subset (shared/eval/squad2): every paragraph becomes a text source titled by its article; every
// question is asked over HTTP. Unanswerable questions here are adversarial (they look answerable).
// Prints the same figures as eval-clapnq. `--dump FILE` saves the evidence features for calibration.
//   bun scripts/eval-squad2.ts [--dump FILE]
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { askAll, EVAL_DIR, loadSources, maybeDump, pageSources, report, startEvalServer, type Question } from "./eval-common";

interface Squad {
  data: { title: string; paragraphs: { context: string; qas: { id: string; question: string; is_impossible: boolean }[] }[] }[];
}

const squad: Squad = JSON.parse(readFileSync(join(EVAL_DIR, "squad2", "dev-v2.0-subset.json"), "utf8"));
const paragraphs = squad.data.flatMap((article) =>
  article.paragraphs.map((p, i) => ({ externalId: `${article.title}-${i}`, title: article.title.replaceAll("_", " "), content: p.context, qas: p.qas })),
);

const server = await startEvalServer();
try {
  const { brain } = await server.api("/api/v1/brains", { name: "SQuAD 2.0" });
  const sourceOf = await loadSources(server, brain.id, paragraphs.map(({ qas: _, ...doc }) => doc));
  const questions: Question[] = paragraphs.flatMap((p) =>
    p.qas.map((qa) => ({ id: qa.id, question: qa.question, answerable: !qa.is_impossible, goldSource: qa.is_impossible ? undefined : sourceOf.get(p.externalId) })),
  );
  const outcomes = await askAll(server, brain.id, questions, await pageSources(server, brain.id));
  report("SQuAD 2.0 subset", outcomes);
  maybeDump("squad2", outcomes);
} finally {
  await server.close();
}
