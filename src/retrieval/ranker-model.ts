// The fitted ranker's model (ranker-weights.json, written by scripts/fit-ranker.ts): a logistic regression or
// a small gradient-boosted tree ensemble over the features of ranker-features.ts, whichever the fit chose by
// measurement. It is data: checked against the features this code computes before anything is ranked with it.
import { FEATURES } from "./ranker-features";

/** A split on one feature (`f` its index in FEATURES): `l` when the value is at most `t`, else `r`; a number is a leaf. */
export type TreeNode = number | { f: number; t: number; l: TreeNode; r: TreeNode };

export type RankerModel =
  | { model: "logistic"; features: string[]; bias: number; weights: number[] }
  /** The margin is the sum of the trees' leaves (shrinkage already in them). */
  | { model: "gbdt"; features: string[]; trees: TreeNode[] };

/** The leaf a page's features reach in one tree. */
export const leafOf = (node: TreeNode, f: readonly number[]): number => (typeof node === "number" ? node : leafOf(f[node.f]! <= node.t ? node.l : node.r, f));

function validTree(node: TreeNode): boolean {
  if (typeof node === "number") return Number.isFinite(node);
  return Number.isInteger(node.f) && node.f >= 0 && node.f < FEATURES.length && Number.isFinite(node.t) && validTree(node.l) && validTree(node.r);
}

/** The model, or a clear error naming the script that writes it. */
export function checkedModel(data: RankerModel): RankerModel {
  const matches = data.features?.join() === FEATURES.join();
  const valid =
    data.model === "gbdt"
      ? Array.isArray(data.trees) && data.trees.length > 0 && data.trees.every(validTree)
      : data.weights?.length === FEATURES.length && Number.isFinite(data.bias) && data.weights.every((w) => Number.isFinite(w));
  if (!matches || !valid) throw new Error(`ranker-weights.json does not match the ranker's features (${FEATURES.join(", ")}): run scripts/fit-ranker.ts`);
  return data;
}

/** The model's log-odds that a page with these features is relevant. */
export const modelMargin = (model: RankerModel, features: readonly number[]): number =>
  model.model === "gbdt" ? model.trees.reduce<number>((sum, tree) => sum + leafOf(tree, features), 0) : model.bias + features.reduce((sum, x, i) => sum + x * model.weights[i]!, 0);

/** The model's probability that a page with these features is relevant. */
export const modelScore = (model: RankerModel, features: readonly number[]): number => 1 / (1 + Math.exp(-modelMargin(model, features)));
