/** Deterministic PRNG (mulberry32): the same seed gives the same sequence, so fixtures are reproducible. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A random text of `min` to `min + spread` pieces of `alphabet`, and a needle cut from it (`needleMin` to
 * `needleMin + needleSpread` characters, trimmed), or null when the cut is too short or splits an astral letter.
 */
export function textWithNeedle(random: () => number, alphabet: string[], min: number, spread: number, needleMin: number, needleSpread: number) {
  const text = Array.from({ length: min + Math.floor(random() * spread) }, () => alphabet[Math.floor(random() * alphabet.length)]!).join("");
  const from = Math.floor(random() * text.length);
  const needle = text.slice(from, from + needleMin + Math.floor(random() * needleSpread)).trim();
  const ok = needle.length >= Math.max(1, needleMin) && !/[\uD800-\uDFFF]/.test(needle.at(0)! + needle.at(-1)!);
  return { text, needle: ok ? needle : null };
}
