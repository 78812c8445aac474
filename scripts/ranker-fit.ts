// The fitters of scripts/fit-ranker.ts: logistic regression (what the ranker runs) and a small gradient-boosted
// tree ensemble to compare it with, plus the ranking quality both are judged by, and the committed training
// rows they read (scripts/ranker-training.jsonl.gz, written by scripts/ranker-rows.ts). No randomness
// anywhere, and the rows are put in one canonical order first: the same rows give the same bits in any order.
import { gunzipSync, gzipSync } from "node:zlib";
import { FEATURES } from "../src/retrieval/ranker-features";
import { leafOf, modelScore, type RankerModel, type TreeNode } from "../src/retrieval/ranker-model";

/** The blend's rank feature: what a tie between two scores falls back on. */
const TOP = FEATURES.indexOf("top");

export interface Row {
  set: string;
  /** The question: rows of one group are ranked against each other. */
  group: string;
  features: number[];
  relevant: boolean;
}

export interface Scorer {
  score(features: number[]): number;
}

/** Each set weighs the same in total; within a set every question the same. */
function sampleWeights(rows: Row[]): number[] {
  const groups = new Map<string, number>();
  for (const r of rows) groups.set(r.group, (groups.get(r.group) ?? 0) + 1);
  const groupsPerSet = new Map<string, Set<string>>();
  for (const r of rows) groupsPerSet.set(r.set, (groupsPerSet.get(r.set) ?? new Set()).add(r.group));
  const sets = groupsPerSet.size;
  return rows.map((r) => rows.length / (sets * groupsPerSet.get(r.set)!.size * groups.get(r.group)!));
}

/** The rows file: one line per question, `{set, group, rows: [[relevant 0|1, ...features]]}`, features to 4 places. */
export function encodeRows(rows: Row[]): Buffer {
  const groups = new Map<string, { set: string; group: string; rows: number[][] }>();
  // Rounded first, then ordered: the order is the one the stored (rounded) rows sort in.
  for (const r of canonical(rows.map((r) => ({ ...r, features: r.features.map(round) })))) {
    const key = `${r.set}\u0000${r.group}`;
    if (!groups.has(key)) groups.set(key, { set: r.set, group: r.group, rows: [] });
    groups.get(key)!.rows.push([r.relevant ? 1 : 0, ...r.features]);
  }
  const text = [...groups.values()].map((g) => JSON.stringify(g)).join("\n");
  // gzip without a file name or time in its header: the same rows, the same bytes.
  return gzipSync(`${text}\n`, { level: 9 });
}

export function decodeRows(data: Uint8Array): Row[] {
  return gunzipSync(data)
    .toString("utf8")
    .split("\n")
    .filter(Boolean)
    .flatMap((line) => {
      const g = JSON.parse(line) as { set: string; group: string; rows: number[][] };
      return g.rows.map(([relevant, ...features]) => ({ set: g.set, group: g.group, features, relevant: relevant === 1 }));
    });
}

const compareNumbers = (a: number[], b: number[]) => {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
};
const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Rows by set, question, features and label: sums (and so the fitted bits) no longer depend on input order. */
export const canonical = (rows: Row[]): Row[] =>
  [...rows].sort((a, b) => compareText(a.set, b.set) || compareText(a.group, b.group) || compareNumbers(a.features, b.features) || Number(a.relevant) - Number(b.relevant));

/** The weights file as scripts/fit-ranker.ts writes it (and --check compares byte for byte). */
export const weightsText = (features: readonly string[], model: { bias: number; weights: number[] }) =>
  `${JSON.stringify({ model: "logistic", features, bias: model.bias, weights: model.weights }, null, 2)}\n`;

/** The weights file of the model the rows fit, of the kind named. */
export const modelText = (kind: "logistic" | "gbdt", rows: Row[]) =>
  kind === "logistic" ? weightsText(FEATURES, fitLogistic(rows)) : treesText(fitGbdt(rows).model as RankerModel & { model: "gbdt" });

/** A tree ensemble's file: one tree a line, so a refit's diff reads tree by tree. */
export const treesText = (model: RankerModel & { model: "gbdt" }) =>
  `{\n  "model": "gbdt",\n  "features": ${JSON.stringify(model.features)},\n  "trees": [\n${model.trees.map((t) => `    ${JSON.stringify(t)}`).join(",\n")}\n  ]\n}\n`;

const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));
const round = (x: number) => Math.round(x * 1e4) / 1e4;

/** Solves A x = b (A symmetric positive definite, small) by Gaussian elimination with partial pivoting. */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[p]![c]!)) p = r;
    [m[c], m[p]] = [m[p]!, m[c]!];
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = m[r]![c]! / m[c]![c]!;
      for (let k = c; k <= n; k++) m[r]![k]! -= f * m[c]![k]!;
    }
  }
  return m.map((row, i) => row[n]! / row[i]!);
}

const NEWTON_STEPS = 25;

/** L2-regularized logistic regression by Newton's method; weights rounded so the file is stable. */
export function fitLogistic(input: Row[], l2 = 1e-2): Scorer & { bias: number; weights: number[] } {
  const rows = canonical(input);
  const d = rows[0]!.features.length + 1;
  const x = rows.map((r) => [1, ...r.features]);
  const y = rows.map((r) => (r.relevant ? 1 : 0));
  const w = sampleWeights(rows);
  let beta = new Array<number>(d).fill(0);
  // A fixed number of Newton steps (it converges in well under ten): no tolerance decides where it stops.
  for (let iter = 0; iter < NEWTON_STEPS; iter++) {
    const grad = new Array<number>(d).fill(0);
    const hess = Array.from({ length: d }, () => new Array<number>(d).fill(0));
    x.forEach((xi, i) => {
      const p = sigmoid(xi.reduce((s, v, k) => s + v * beta[k]!, 0));
      for (let a = 0; a < d; a++) {
        grad[a]! += w[i]! * (y[i]! - p) * xi[a]!;
        for (let b = 0; b < d; b++) hess[a]![b]! += w[i]! * p * (1 - p) * xi[a]! * xi[b]!;
      }
    });
    for (let a = 1; a < d; a++) {
      grad[a]! -= l2 * rows.length * beta[a]!;
      hess[a]![a]! += l2 * rows.length;
    }
    const step = solve(hess, grad);
    beta = beta.map((b, k) => b + step[k]!);
  }
  const [bias, ...weights] = beta.map(round);
  return { bias: bias!, weights, score: (f) => sigmoid(bias! + f.reduce((s, v, k) => s + v * weights[k]!, 0)) };
}

/**
 * The best split of (gradient, hessian) over the rows `idx`, a Newton leaf value on each side; depth-limited.
 * `orders` holds every row sorted by each feature once (a stable sort, so ties keep the canonical order): a
 * node scans them for its own rows instead of sorting again.
 */
function grow(rows: Row[], orders: number[][], idx: number[], g: number[], h: number[], depth: number, shrinkage: number): TreeNode {
  // Leaves hold the shrunk value, rounded: the file stores exactly what the ranker adds up.
  const leaf = () => round((shrinkage * idx.reduce((s, i) => s + g[i]!, 0)) / (idx.reduce((s, i) => s + h[i]!, 0) + 1));
  if (depth === 0 || idx.length < 40) return leaf();
  const member = new Uint8Array(rows.length);
  for (const i of idx) member[i] = 1;
  let best = { gain: 0, feature: -1, threshold: 0 };
  const G = idx.reduce((s, i) => s + g[i]!, 0);
  const H = idx.reduce((s, i) => s + h[i]!, 0);
  for (let f = 0; f < orders.length; f++) {
    let gl = 0;
    let hl = 0;
    let previous = -1;
    for (const i of orders[f]!) {
      if (!member[i]) continue;
      if (previous >= 0) {
        const v = rows[previous]!.features[f]!;
        const next = rows[i]!.features[f]!;
        gl += g[previous]!;
        hl += h[previous]!;
        if (v !== next) {
          const gain = (gl * gl) / (hl + 1) + ((G - gl) * (G - gl)) / (H - hl + 1) - (G * G) / (H + 1);
          if (gain > best.gain) best = { gain, feature: f, threshold: round((v + next) / 2) };
        }
      }
      previous = i;
    }
  }
  if (best.feature < 0) return leaf();
  const left = idx.filter((i) => rows[i]!.features[best.feature]! <= best.threshold);
  const right = idx.filter((i) => rows[i]!.features[best.feature]! > best.threshold);
  if (left.length === 0 || right.length === 0) return leaf();
  return { f: best.feature, t: best.threshold, l: grow(rows, orders, left, g, h, depth - 1, shrinkage), r: grow(rows, orders, right, g, h, depth - 1, shrinkage) };
}

/** Gradient-boosted trees on the logistic loss (depth 3, 60 rounds, shrinkage 0.2), scored as the ranker scores them. */
export function fitGbdt(input: Row[], features: readonly string[] = FEATURES, rounds = 60, depth = 3, shrinkage = 0.2): Scorer & { model: RankerModel } {
  const rows = canonical(input);
  const w = sampleWeights(rows);
  const trees: TreeNode[] = [];
  const margin = new Array<number>(rows.length).fill(0);
  const all = rows.map((_, i) => i);
  const orders = rows[0]!.features.map((_, f) => [...all].sort((a, b) => rows[a]!.features[f]! - rows[b]!.features[f]!));
  const model: RankerModel = { model: "gbdt", features: [...features], trees };
  for (let r = 0; r < rounds; r++) {
    const p = margin.map(sigmoid);
    const g = rows.map((row, i) => w[i]! * ((row.relevant ? 1 : 0) - p[i]!));
    const h = rows.map((_, i) => w[i]! * p[i]! * (1 - p[i]!));
    const tree = grow(rows, orders, all, g, h, depth, shrinkage);
    trees.push(tree);
    rows.forEach((row, i) => (margin[i]! += leafOf(tree, row.features)));
  }
  return { model, score: (f) => modelScore(model, f) };
}

/**
 * Mean nDCG@10 per set of each question's pages ordered by the scorer. Ties go by the blend's rank (the `top`
 * feature), then an irrelevant page first: a tie never flatters a scorer.
 */
export function meanQuality(model: Scorer, rows: Row[]): Record<string, number> {
  const groups = new Map<string, Row[]>();
  for (const r of rows) groups.set(r.group, [...(groups.get(r.group) ?? []), r]);
  const sums = new Map<string, { total: number; n: number }>();
  for (const group of groups.values()) {
    const ranked = group.map((r) => ({ r, s: model.score(r.features) })).sort((a, b) => b.s - a.s || b.r.features[TOP]! - a.r.features[TOP]! || Number(a.r.relevant) - Number(b.r.relevant));
    const dcg = ranked.slice(0, 10).reduce((s, x, k) => s + (x.r.relevant ? 1 / Math.log2(k + 2) : 0), 0);
    const relevant = group.filter((r) => r.relevant).length;
    const ideal = Array.from({ length: Math.min(relevant, 10) }, (_, k) => 1 / Math.log2(k + 2)).reduce((a, b) => a + b, 0);
    const set = group[0]!.set;
    const cur = sums.get(set) ?? { total: 0, n: 0 };
    sums.set(set, { total: cur.total + (ideal > 0 ? dcg / ideal : 0), n: cur.n + 1 });
  }
  return Object.fromEntries([...sums].map(([set, { total, n }]) => [set, total / n]));
}
