// ClapNQ (shared/eval/clapnq): every passage of the answerable and unanswerable halves becomes a text source
// of one brain; every question is asked over HTTP. Prints unanswerable→thin, answerable→thin, gold page cited
// and /context gold recall@5. `--dump FILE` saves the evidence features for scripts/eval-calibrate.ts.
//   bun scripts/eval-clapnq.ts [--limit N] [--dump FILE]
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { askAll, EVAL_DIR, loadSources, maybeDump, pageSources, report, startEvalServer, type Question } from "./eval-common";

interface Row {
  id: string;
  input: string;
  passages: { title: string; text: string }[];
}

const readRows = (file: string): Row[] =>
  readFileSync(join(EVAL_DIR, "clapnq", file), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));

const limitAt = process.argv.indexOf("--limit");
const limit = limitAt > 0 ? Number(process.argv[limitAt + 1]) : Infinity;
const answerable = readRows("dev_answerable.jsonl").slice(0, limit);
const unanswerable = readRows("dev_unanswerable.jsonl").slice(0, limit);

const server = await startEvalServer();
try {
  const { brain } = await server.api("/api/v1/brains", { name: "ClapNQ" });
  const docs = [...answerable, ...unanswerable].map((r) => ({
    externalId: r.id,
    title: r.passages[0]!.title,
    content: r.passages[0]!.text,
  }));
  const sourceOf = await loadSources(server, brain.id, docs);
  const questions: Question[] = [
    ...answerable.map((r) => ({ id: r.id, question: r.input, answerable: true, goldSource: sourceOf.get(r.id) })),
    ...unanswerable.map((r) => ({ id: r.id, question: r.input, answerable: false })),
  ];
  const outcomes = await askAll(server, brain.id, questions, await pageSources(server, brain.id));
  report("ClapNQ dev", outcomes);
  maybeDump("clapnq", outcomes);
} finally {
  await server.close();
}
