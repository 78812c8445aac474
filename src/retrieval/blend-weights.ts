// How much the vector side counts in the hybrid score, per embedding model (DESIGN.md "Hybrid": a normalized
// score blend tuned on training queries; never blind fusion). A weight is tuned with
// `bun scripts/eval-blend.ts` on the ClapNQ training half with that model configured, and written here
// with what it was tuned on. Keys are BRAINBOX_EMBED_MODEL values.

export interface BlendWeight {
  /** 0 = lexical only, 1 = vectors only. */
  vectorWeight: number;
  /** Where the weight comes from (data set, metric, date). */
  tunedOn: string;
}

export const BLEND_WEIGHTS: Readonly<Record<string, BlendWeight>> = {};

/**
 * For a model nobody tuned: a modest share, so a weak model cannot drown BM25 (the measured failure mode of
 * unweighted fusion) while a good one still helps. Untuned models are logged at start of retrieval.
 */
export const UNTUNED_VECTOR_WEIGHT = 0.3;

export function vectorWeightFor(model: string): { weight: number; tuned: boolean } {
  const entry = BLEND_WEIGHTS[model];
  return entry ? { weight: entry.vectorWeight, tuned: true } : { weight: UNTUNED_VECTOR_WEIGHT, tuned: false };
}
