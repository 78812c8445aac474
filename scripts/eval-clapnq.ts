// ClapNQ (shared/eval/clapnq) at several brain sizes: each row's passage is a text source, a brain holds
// `size` rows (answerable and unanswerable mixed at random; every row's question is asked over the brain
// holding its passage), over HTTP. Prints, per size and per half, unanswerable→thin, answerable→thin, gold
// page cited of answered answerable questions and /context recall@5 (scripts/eval-sweep.ts).
// `--dump FILE` saves the outcomes with their retrievals for scripts/eval-calibrate.ts.
//   bun scripts/eval-clapnq.ts [--sizes 10,50,300] [--rounds 3] [--seed 1] [--dump FILE]
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { EVAL_DIR } from "./eval-common";
import { reportSweep, sweep, type Item } from "./eval-sweep";

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

const itemOf = (r: Row, answerable: boolean): Item => ({
  doc: { externalId: r.id, title: r.passages[0]!.title, content: r.passages[0]!.text },
  questions: [{ id: r.id, question: r.input, answerable }],
});
const items = [...readRows("dev_answerable.jsonl").map((r) => itemOf(r, true)), ...readRows("dev_unanswerable.jsonl").map((r) => itemOf(r, false))];

reportSweep("ClapNQ dev", await sweep("clapnq", items, { sizes: [10, 50, 300] }));
process.exit(0);
