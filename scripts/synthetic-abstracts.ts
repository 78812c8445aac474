// Abstract-like documents for the import benches: Zipf-distributed words over a 30k vocabulary (the 60
// commonest are real English function words, so stopwords behave as in real text), 120-280 words, a title
// of 5-10 words. Deterministic for a seed.
import { mulberry32 } from "../tests/support/random";

const SYLLABLES = "ka lo mi ren tu sa vel dor pi ne qua zo fi lu ber tan gis mo ra che".split(" ");
const FUNCTION_WORDS = ("the of and in to a is for with that by on as are from at was be this were an which " +
  "or we these their can also has have been not between its our than it using both two more all may other " +
  "study results used cells data shown high effect cell analysis patients").split(" ");
/** The i-th pseudo-word: a syllable string, so the porter stemmer leaves it alone. */
export function pseudoWord(i: number): string {
  let w = "";
  for (let n = i + 1; n > 0; n = Math.floor(n / SYLLABLES.length)) w += SYLLABLES[n % SYLLABLES.length];
  return `${w}x`;
}
export const words = Array.from({ length: 30_000 }, (_, i) => (i < FUNCTION_WORDS.length ? FUNCTION_WORDS[i]! : pseudoWord(i)));

/** Draws from `list` by Zipf's law (the i-th word with weight 1/(i+1)), with `random`. */
export function zipfSampler(list: string[], random: () => number): () => string {
  const weights = list.map((_, i) => 1 / (i + 1));
  const total = weights.reduce((a, b) => a + b, 0);
  let acc = 0;
  const cdf = weights.map((w) => (acc += w / total));
  return () => {
    const r = random();
    let lo = 0;
    let hi = cdf.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid]! < r) lo = mid + 1;
      else hi = mid;
    }
    return list[lo]!;
  };
}

export interface Abstract {
  title: string;
  content: string;
  externalId: string;
}

/** `count` documents (externalId `doc-<i>`, the number also ends the title), and `random` for more draws. */
export function syntheticAbstracts(seed: number, count: number): { documents: Abstract[]; random: () => number } {
  const random = mulberry32(seed);
  const zipfWord = zipfSampler(words, random);
  const phrase = (n: number) => Array.from({ length: n }, zipfWord).join(" ");
  const documents = Array.from({ length: count }, (_, i) => {
    const sentences: string[] = [];
    for (let n = 120 + Math.floor(random() * 160); n > 0; n -= 20) sentences.push(`${phrase(20)}.`);
    return { title: `${phrase(5 + Math.floor(random() * 6))} ${i}`, content: sentences.join(" "), externalId: `doc-${i}` };
  });
  return { documents, random };
}
