// Brain-size sweep shared by eval-clapnq and eval-squad2: the same questions asked over brains of several
// sizes. For a size smaller than the data set, the items (a passage with its questions) are shuffled
// (seeded) and cut into brains of that size, each brain on a fresh server (term statistics are the whole
// index's, so brains must not share one), for several rounds; figures are averaged over every question
// asked. Questions are split into two fixed halves by a hash of their id: `calibration` (what
// scripts/eval-calibrate.ts fits the thin model on) and `held-out` (what is reported).
//   flags: --sizes 10,50,300  --rounds 3  --seed 1  --dump FILE
import { writeFileSync } from "node:fs";
import { GENERATOR_GATE, isThin } from "../src/modules/answer/thin";
import type { EvidenceFeatures } from "../src/modules/answer/evidence";
import { askAll, loadSources, pageSources, startEvalServer, type Outcome, type Question } from "./eval-common";

export interface Item {
  doc: { externalId: string; title: string; content: string };
  /** goldSource is filled in once the doc is loaded. */
  questions: Omit<Question, "goldSource">[];
}

export interface SweptOutcome extends Outcome {
  set: string;
  size: number;
  half: "calibration" | "held-out";
}

const flag = (name: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1] : undefined;
};

/** FNV-1a: a stable half for each question, whatever the order it is asked in. */
export function halfOf(id: string): "calibration" | "held-out" {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  return (h >>> 0) % 2 === 0 ? "calibration" : "held-out";
}

function shuffled<T>(items: T[], seed: number): T[] {
  let s = seed >>> 0;
  const random = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** Asks every item's questions over one fresh brain holding exactly these items. */
async function askBrain(set: string, size: number, items: Item[]): Promise<SweptOutcome[]> {
  const server = await startEvalServer();
  try {
    const { brain } = await server.api("/api/v1/brains", { name: `${set} ${size}` });
    const sourceOf = await loadSources(server, brain.id, items.map((i) => i.doc), { quiet: true });
    const questions: Question[] = items.flatMap((item) =>
      item.questions.map((q) => ({ ...q, goldSource: q.answerable ? sourceOf.get(item.doc.externalId) : undefined })),
    );
    const outcomes = await askAll(server, brain.id, questions, await pageSources(server, brain.id), { quiet: true });
    return outcomes.map((o) => ({ ...o, set, size, half: halfOf(o.id) }));
  } finally {
    await server.close();
  }
}

export async function sweep(set: string, items: Item[], defaults: { sizes: number[] }): Promise<SweptOutcome[]> {
  const sizes = (flag("sizes")?.split(",").map(Number) ?? defaults.sizes).map((n) => Math.min(n, items.length));
  const rounds = Number(flag("rounds") ?? 3);
  const seed = Number(flag("seed") ?? 1);
  const all: SweptOutcome[] = [];
  for (const size of [...new Set(sizes)]) {
    const started = Date.now();
    // The whole set is one brain whatever the seed: one round is enough.
    const roundsHere = size >= items.length ? 1 : rounds;
    let brains = 0;
    for (let round = 0; round < roundsHere; round++) {
      const order = shuffled(items, seed * 1000 + round);
      for (let at = 0; at + size <= order.length; at += size) {
        all.push(...(await askBrain(set, size, order.slice(at, at + size))));
        brains++;
      }
    }
    console.log(`size ${size}: ${brains} brains, ${all.filter((o) => o.size === size).length} questions in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  const dump = flag("dump");
  if (dump) {
    writeFileSync(dump, JSON.stringify(all));
    console.log(`wrote ${all.length} outcomes to ${dump}`);
  }
  return all;
}

export interface Figures {
  answerable: number;
  unanswerable: number;
  unanswerableThin: number;
  answerableThin: number;
  goldCitedWhenAnswered: number;
  recallAt5: number;
  /** Answerable questions the looser gate in front of a model (Ollama) would stop (target ≤ 2%). */
  modelGateStopped: number;
  /** Answered answerable questions whose answer text holds one of the data set's answers (NaN when it has none). */
  answerFound: number;
  /** Median length of the answered questions' answers, in characters (citations as their titles). */
  answerChars: number;
}

/** Lower case, one space, no punctuation, links read as their words: "[[x|Apollo 11]]," ~ "apollo 11". */
const plain = (text: string) =>
  text
    .replace(/\[\[[^\]|]*\|([^\]]*)\]\]/g, "$1")
    .replace(/\[\[([^\]]*)\]\]/g, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();

export function figuresOf(
  outcomes: { answerable: boolean; thin: boolean; goldSource?: string; citedSources: string[]; contextSources?: string[]; features: unknown; answers?: string[]; answerMd?: string }[],
): Figures {
  const answerable = outcomes.filter((o) => o.answerable);
  const unanswerable = outcomes.filter((o) => !o.answerable);
  const answered = answerable.filter((o) => !o.thin);
  const share = (n: number, d: number) => (d ? n / d : NaN);
  return {
    answerable: answerable.length,
    unanswerable: unanswerable.length,
    unanswerableThin: share(unanswerable.filter((o) => o.thin).length, unanswerable.length),
    answerableThin: share(answerable.filter((o) => o.thin).length, answerable.length),
    goldCitedWhenAnswered: share(answered.filter((o) => o.goldSource && o.citedSources.includes(o.goldSource)).length, answered.length),
    recallAt5: share(answerable.filter((o) => o.goldSource && (o.contextSources ?? []).slice(0, 5).includes(o.goldSource)).length, answerable.length),
    modelGateStopped: share(answerable.filter((o) => isThin(o.features as EvidenceFeatures, GENERATOR_GATE)).length, answerable.length),
    answerFound: share(
      answered.filter((o) => o.answers?.length && o.answerMd !== undefined && o.answers.some((a) => plain(o.answerMd!).includes(plain(a)))).length,
      answered.filter((o) => o.answers?.length).length,
    ),
    answerChars: median(answered.flatMap((o) => (o.answerMd === undefined ? [] : [plain(o.answerMd).length]))),
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor(sorted.length / 2)]! : NaN;
}

const p = (x: number) => (Number.isNaN(x) ? "n/a" : `${(100 * x).toFixed(1)}%`);

/** One table per half: size, questions, unanswerable→thin, answerable→thin, gold cited of answered, /context recall@5. */
export function reportSweep(name: string, outcomes: SweptOutcome[]) {
  const sizes = [...new Set(outcomes.map((o) => o.size))];
  for (const half of ["held-out", "calibration"] as const) {
    console.log(`\n${name}, ${half} half (targets: answerable→thin ≤ 8%, unanswerable→thin ≥ 50% on ClapNQ, gold cited ≥ 90% of answered)`);
    console.log("  size   questions (ans/unans)   unans→thin   ans→thin   gold cited/answered   context recall@5   model gate: ans stopped   answer found/answered   answer chars (median)");
    for (const size of sizes) {
      const f = figuresOf(outcomes.filter((o) => o.size === size && o.half === half));
      console.log(
        `  ${String(size).padEnd(6)} ${`${f.answerable}/${f.unanswerable}`.padEnd(23)} ${p(f.unanswerableThin).padEnd(12)} ${p(f.answerableThin).padEnd(10)} ${p(f.goldCitedWhenAnswered).padEnd(21)} ${p(f.recallAt5).padEnd(18)} ${p(f.modelGateStopped).padEnd(25)} ${p(f.answerFound).padEnd(23)} ${Number.isNaN(f.answerChars) ? "n/a" : f.answerChars}`,
      );
    }
  }
}
