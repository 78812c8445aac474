// Embeddings for the model-server stand-ins that mean something: each word (synonyms folded into one) adds
// to a hashed dimension, so texts sharing words or synonyms are close. A page found through a synonym alone
// was found by its vector, not by the lexical index.
const SYNONYMS: Record<string, string> = { automobile: "car", vehicle: "car", cars: "car", physician: "doctor", doctors: "doctor" };

export function wordVector(text: string, dim: number): number[] {
  const v: number[] = new Array<number>(dim).fill(0);
  for (const raw of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    const word = SYNONYMS[raw] ?? raw;
    v[Number(BigInt(Bun.hash(word)) % BigInt(dim))]! += 1;
  }
  if (!v.some((x) => x !== 0)) v[0] = 1; // no word at all: still a unit vector
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}
