// SQuAD 2.0 subset (shared/eval/squad2) at several brain sizes: each paragraph is a text source titled by its
// article, a brain holds `size` paragraphs and every question of those paragraphs is asked over it (HTTP).
// Unanswerable questions here are adversarial (they look answerable). Prints the same per-size figures as
// eval-clapnq. `--dump FILE` saves the outcomes for scripts/eval-calibrate.ts.
//   bun scripts/eval-squad2.ts [--sizes 10,50,83] [--rounds 3] [--seed 1] [--dump FILE]
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { EVAL_DIR } from "./eval-common";
import { reportSweep, sweep, type Item } from "./eval-sweep";

interface Squad {
  data: { title: string; paragraphs: { context: string; qas: { id: string; question: string; is_impossible: boolean }[] }[] }[];
}

const squad: Squad = JSON.parse(readFileSync(join(EVAL_DIR, "squad2", "dev-v2.0-subset.json"), "utf8"));
const items: Item[] = squad.data.flatMap((article) =>
  article.paragraphs.map((p, i) => ({
    doc: { externalId: `${article.title}-${i}`, title: article.title.replaceAll("_", " "), content: p.context },
    questions: p.qas.map((qa) => ({ id: qa.id, question: qa.question, answerable: !qa.is_impossible })),
  })),
);

reportSweep("SQuAD 2.0 subset", await sweep("squad2", items, { sizes: [10, 50, 83] }));
process.exit(0);
