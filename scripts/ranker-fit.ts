// The fitters of scripts/fit-ranker.ts: logistic regression (what the ranker runs) and a small gradient-boosted
// tree ensemble to compare it with, plus the ranking quality both are judged by. No randomness anywhere.

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

/** L2-regularized logistic regression by Newton's method; weights rounded so the file is stable. */
export function fitLogistic(rows: Row[], l2 = 1e-2): Scorer & { bias: number; weights: number[] } {
  const d = rows[0]!.features.length + 1;
  const x = rows.map((r) => [1, ...r.features]);
  const y = rows.map((r) => (r.relevant ? 1 : 0));
  const w = sampleWeights(rows);
  let beta = new Array<number>(d).fill(0);
  for (let iter = 0; iter < 50; iter++) {
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
    if (Math.max(...step.map(Math.abs)) < 1e-9) break;
  }
  const [bias, ...weights] = beta.map(round);
  return { bias: bias!, weights, score: (f) => sigmoid(bias! + f.reduce((s, v, k) => s + v * weights[k]!, 0)) };
}

interface Tree {
  feature: number;
  threshold: number;
  left: number | Tree;
  right: number | Tree;
}
const evalTree = (t: number | Tree, f: number[]): number => (typeof t === "number" ? t : evalTree(f[t.feature]! <= t.threshold ? t.left : t.right, f));

/** The best split of (gradient, hessian) over the rows `idx`, a Newton leaf value on each side; depth-limited. */
function grow(rows: Row[], idx: number[], g: number[], h: number[], depth: number): number | Tree {
  const leaf = () => idx.reduce((s, i) => s + g[i]!, 0) / (idx.reduce((s, i) => s + h[i]!, 0) + 1);
  if (depth === 0 || idx.length < 40) return leaf();
  let best = { gain: 0, feature: -1, threshold: 0 };
  const G = idx.reduce((s, i) => s + g[i]!, 0);
  const H = idx.reduce((s, i) => s + h[i]!, 0);
  for (let f = 0; f < rows[0]!.features.length; f++) {
    const sorted = [...idx].sort((a, b) => rows[a]!.features[f]! - rows[b]!.features[f]!);
    let gl = 0;
    let hl = 0;
    for (let k = 0; k < sorted.length - 1; k++) {
      gl += g[sorted[k]!]!;
      hl += h[sorted[k]!]!;
      const v = rows[sorted[k]!]!.features[f]!;
      const next = rows[sorted[k + 1]!]!.features[f]!;
      if (v === next) continue;
      const gain = (gl * gl) / (hl + 1) + ((G - gl) * (G - gl)) / (H - hl + 1) - (G * G) / (H + 1);
      if (gain > best.gain) best = { gain, feature: f, threshold: (v + next) / 2 };
    }
  }
  if (best.feature < 0) return leaf();
  const left = idx.filter((i) => rows[i]!.features[best.feature]! <= best.threshold);
  const right = idx.filter((i) => rows[i]!.features[best.feature]! > best.threshold);
  return { feature: best.feature, threshold: best.threshold, left: grow(rows, left, g, h, depth - 1), right: grow(rows, right, g, h, depth - 1) };
}

/** Gradient-boosted trees on the logistic loss (depth 3, 60 rounds, shrinkage 0.2). */
export function fitGbdt(rows: Row[], rounds = 60, depth = 3, shrinkage = 0.2): Scorer {
  const w = sampleWeights(rows);
  const trees: (number | Tree)[] = [];
  const margin = new Array<number>(rows.length).fill(0);
  const all = rows.map((_, i) => i);
  for (let r = 0; r < rounds; r++) {
    const p = margin.map(sigmoid);
    const g = rows.map((row, i) => w[i]! * ((row.relevant ? 1 : 0) - p[i]!));
    const h = rows.map((_, i) => w[i]! * p[i]! * (1 - p[i]!));
    const tree = grow(rows, all, g, h, depth);
    trees.push(tree);
    rows.forEach((row, i) => (margin[i]! += shrinkage * evalTree(tree, row.features)));
  }
  return { score: (f) => sigmoid(trees.reduce<number>((s, t) => s + shrinkage * evalTree(t, f), 0)) };
}

/** Mean nDCG@10 per set of each question's pages ordered by the scorer (ties: the blend's order). */
export function meanQuality(model: Scorer, rows: Row[]): Record<string, number> {
  const groups = new Map<string, Row[]>();
  for (const r of rows) groups.set(r.group, [...(groups.get(r.group) ?? []), r]);
  const sums = new Map<string, { total: number; n: number }>();
  for (const group of groups.values()) {
    const ranked = group.map((r, i) => ({ r, i, s: model.score(r.features) })).sort((a, b) => b.s - a.s || a.i - b.i);
    const dcg = ranked.slice(0, 10).reduce((s, x, k) => s + (x.r.relevant ? 1 / Math.log2(k + 2) : 0), 0);
    const relevant = group.filter((r) => r.relevant).length;
    const ideal = Array.from({ length: Math.min(relevant, 10) }, (_, k) => 1 / Math.log2(k + 2)).reduce((a, b) => a + b, 0);
    const set = group[0]!.set;
    const cur = sums.get(set) ?? { total: 0, n: 0 };
    sums.set(set, { total: cur.total + (ideal > 0 ? dcg / ideal : 0), n: cur.n + 1 });
  }
  return Object.fromEntries([...sums].map(([set, { total, n }]) => [set, total / n]));
}
