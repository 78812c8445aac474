// A bare FTS5 index of some pages alone (the product's tokenizer and column weights), scoring each page as a
// brain's own BM25 does (retrieval/brain-statistics.ts): per term, FTS5's score re-weighted from its IDF
// (classic form, floored as FTS5 floors it) to the always-positive form. What per-brain ranking must equal.
import { createClient } from "@libsql/client";

export async function bareBrainScores(pages: { title: string; markdown: string }[], terms: string[]): Promise<Map<string, number>> {
  const bare = createClient({ url: ":memory:" });
  try {
    await bare.execute("CREATE VIRTUAL TABLE f USING fts5(title, body, tokenize='porter unicode61 remove_diacritics 2')");
    for (let at = 0; at < pages.length; at += 500)
      await bare.batch(pages.slice(at, at + 500).map((p) => ({ sql: "INSERT INTO f (title, body) VALUES (?, ?)", args: [p.title, p.markdown] })));
    const scores = new Map<string, number>();
    for (const term of terms) {
      const rows = (await bare.execute({ sql: "SELECT title, -bm25(f, 3.0, 1.0) AS score FROM f WHERE f MATCH ?", args: [`"${term}"`] })).rows;
      const n = pages.length;
      const df = rows.length;
      const classic = Math.max(Math.log((n - df + 0.5) / (df + 0.5)), 1e-6);
      const positive = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      for (const r of rows) scores.set(String(r.title), (scores.get(String(r.title)) ?? 0) + (Number(r.score) * positive) / classic);
    }
    return scores;
  } finally {
    bare.close();
  }
}
