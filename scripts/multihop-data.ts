// The public multi-hop sets (shared/eval/multihop, its README): the questions, their halves, and loading a
// question's paragraphs into a brain. Shared by eval-multihop.ts and fit-ranker.ts.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { EVAL_DIR, loadSources, pageSources, type EvalServer } from "./eval-common";

export interface Paragraph {
  title: string;
  text: string;
  supporting: boolean;
}
export interface Item {
  id: string;
  dataset: "2wikimultihopqa" | "musique";
  type: string;
  question: string;
  answer: string;
  answer_aliases?: string[];
  paragraphs: Paragraph[];
}

/** make.py's split: calibration when sha256(id) is even, else report. */
export const half = (id: string) => (BigInt(`0x${createHash("sha256").update(id).digest("hex")}`) % 2n === 0n ? "calibration" : "report");

export const MULTIHOP_SETS = [
  { name: "2WikiMultihopQA", key: "2wiki", file: "2wikimultihopqa_dev_500.jsonl" },
  { name: "MuSiQue", key: "musique", file: "musique_ans_dev_200.jsonl" },
];

export function read(file: string): Item[] {
  return readFileSync(join(EVAL_DIR, "multihop", file), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

/** Each question's paragraph index → source id, for one brain (own or pooled). */
export type Loaded = { brainId: string; sourceOf: (item: Item, paragraph: number) => string | undefined; paragraphOf: (item: Item, sourceId: string) => number | undefined; slugSource: Map<string, string> };

export async function loadOwn(server: EvalServer, item: Item): Promise<Loaded> {
  const { brain } = await server.api("/api/v1/brains", { name: `q ${item.id}`.slice(0, 80) });
  const ids = await loadSources(
    server,
    brain.id,
    item.paragraphs.map((p, i) => ({ externalId: String(i), title: p.title, content: p.text })),
    { quiet: true },
  );
  const bySource = new Map([...ids].map(([i, s]) => [s, Number(i)]));
  return { brainId: brain.id, sourceOf: (_item, i) => ids.get(String(i)), paragraphOf: (_item, s) => bySource.get(s), slugSource: await pageSources(server, brain.id) };
}

export async function loadPooled(server: EvalServer, items: Item[], name: string): Promise<Loaded> {
  const { brain } = await server.api("/api/v1/brains", { name: `pooled ${name}` });
  const key = (p: Paragraph) => `${p.title}\u0000${p.text}`;
  const docs = new Map<string, Paragraph>();
  for (const item of items) for (const p of item.paragraphs) docs.set(key(p), p);
  const keys = [...docs.keys()];
  const ids = await loadSources(server, brain.id, keys.map((k, i) => ({ externalId: String(i), title: docs.get(k)!.title, content: docs.get(k)!.text })));
  const sourceOfKey = new Map(keys.map((k, i) => [k, ids.get(String(i))!]));
  return {
    brainId: brain.id,
    sourceOf: (item, i) => sourceOfKey.get(key(item.paragraphs[i]!)),
    // A pooled paragraph shared by two questions maps to the first of the question's copies.
    paragraphOf: (item, s) => {
      const i = item.paragraphs.findIndex((p) => sourceOfKey.get(key(p)) === s);
      return i >= 0 ? i : undefined;
    },
    slugSource: await pageSources(server, brain.id),
  };
}
