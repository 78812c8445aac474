// SQuAD 2.0 subset (shared/eval/squad2) at several brain sizes: each paragraph is a text source titled by its
// article, a brain holds `size` paragraphs and every question of those paragraphs is asked over it (HTTP).
// Unanswerable questions here are adversarial (they look answerable). Prints the same per-size figures as
// eval-clapnq. `--dump FILE` saves the outcomes for scripts/eval-calibrate.ts.
//   bun scripts/eval-squad2.ts [--sizes 10,50,83] [--rounds 3] [--seed 1] [--dump FILE] [--by-article]
// --by-article: brains of 5, 10 and 20 paragraphs of one article each (a brain on one subject).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { EVAL_DIR } from "./eval-common";
import { reportSweep, sweep, type Item } from "./eval-sweep";

interface Squad {
  data: { title: string; paragraphs: { context: string; qas: { id: string; question: string; is_impossible: boolean; answers?: { text: string }[] }[] }[] }[];
}

const squad: Squad = JSON.parse(readFileSync(join(EVAL_DIR, "squad2", "dev-v2.0-subset.json"), "utf8"));
const itemsOf = (article: Squad["data"][number]): Item[] =>
  article.paragraphs.map((p, i) => ({
    doc: { externalId: `${article.title}-${i}`, title: article.title.replaceAll("_", " "), content: p.context },
    questions: p.qas.map((qa) => ({ id: qa.id, question: qa.question, answerable: !qa.is_impossible, answers: (qa.answers ?? []).map((a) => a.text) })),
  }));

if (process.argv.includes("--by-article")) {
  // Every brain holds paragraphs of one article: a first brain on one subject, whose own words are in most
  // of its pages (the two articles' outcomes are pooled per size).
  const outcomes = [];
  for (const article of squad.data) outcomes.push(...(await sweep(`squad2 ${article.title}`, itemsOf(article), { sizes: [5, 10, 20] })));
  reportSweep("SQuAD 2.0 subset, one article per brain", outcomes);
} else {
  reportSweep("SQuAD 2.0 subset", await sweep("squad2", squad.data.flatMap(itemsOf), { sizes: [10, 50, 83] }));
}
process.exit(0);
