// Ranking quality of POST /context against a bare FTS5 index with DESIGN.md's configuration, on retrieval
// sets built from the eval data: ClapNQ (300 passages; the 150 answerable questions, each with its gold
// passage) and the SQuAD 2.0 subset (83 paragraphs; the answerable questions, each with its paragraph).
// Prints nDCG@10 and recall@1/5/10 of the bare index (title, body; porter; bm25 weights 3/1; query
// lower-cased, split, stopwords removed, OR-joined) and of /context with limit 10 and with the default 5.
// Gains are per document: the several pages a long source becomes count once, at the best rank.
// Then attribution: the bare index over the product's own pages (markdown as stored with the concept pages
// in the same index, as before migration 0013; and what 0013 indexes: search_text, concept pages apart), and
// the product's retriever without link expansion and without concept pages as expansion seeds.
// `--shared`: the server also holds the other set in a second brain (one index for all brains, so its
// statistics are shared: what a brain filter costs).
//   BRAINBOX_EVAL_DIR=/work/shared/eval bun scripts/eval-context.ts [--shared]
import { createClient } from "@libsql/client";
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { answerService } from "../src/modules/answer";
import { ftsMatch, queryTerms } from "../src/retrieval/terms";
import { loadSources, pageSources, startEvalServer } from "./eval-common";
import { clapnq, squad, type RetrievalSet } from "./retrieval-sets";
import type { Rerank } from "../src/retrieval/retriever";
import { halfOf } from "./eval-sweep";
import { expandAlongLinks } from "./legacy-expand";

const dedupe = (ids: string[]) => [...new Set(ids)];
function metrics(rankings: string[][], set: RetrievalSet) {
  let ndcg = 0;
  const hits = { 1: 0, 5: 0, 10: 0 };
  rankings.forEach((ranking, i) => {
    const rank = dedupe(ranking).slice(0, 10).indexOf(set.queries[i]!.relevant);
    if (rank >= 0) ndcg += 1 / Math.log2(rank + 2);
    for (const k of [1, 5, 10] as const) if (rank >= 0 && rank < k) hits[k]++;
  });
  const n = set.queries.length;
  // The held-out half: the questions scripts/fit-ranker.ts did not fit the link ranker on.
  let held = 0;
  let heldN = 0;
  rankings.forEach((ranking, i) => {
    if (halfOf(`${set.name}:${i}:${set.queries[i]!.query}`) !== "held-out") return;
    heldN++;
    const rank = dedupe(ranking).slice(0, 10).indexOf(set.queries[i]!.relevant);
    if (rank >= 0) held += 1 / Math.log2(rank + 2);
  });
  return `nDCG@10 ${(ndcg / n).toFixed(3)} (held-out ${(held / Math.max(heldN, 1)).toFixed(3)})   recall@1 ${(hits[1] / n).toFixed(3)}   @5 ${(hits[5] / n).toFixed(3)}   @10 ${(hits[10] / n).toFixed(3)}`;
}

/** Rankings of a bare index; ids in `hidden` are indexed but never ranked (concept pages, as /context drops them). */
async function bareFts(set: RetrievalSet, hidden = new Set<string>()): Promise<string[][]> {
  const file = join(tmpdir(), `bare-fts-${process.pid}.db`);
  const db = createClient({ url: `file:${file}` });
  try {
    await db.execute("CREATE VIRTUAL TABLE docs USING fts5(id UNINDEXED, title, body, tokenize='porter unicode61 remove_diacritics 2')");
    await db.batch(set.docs.map((d) => ({ sql: "INSERT INTO docs(id, title, body) VALUES (?, ?, ?)", args: [d.id, d.title, d.text] })));
    const out: string[][] = [];
    for (const q of set.queries) {
      const terms = queryTerms(q.query);
      if (terms.length === 0) {
        out.push([]);
        continue;
      }
      // bm25 weights in column order (id, title, body): DESIGN.md's title 3, body 1.
      const rows = await db.execute({ sql: "SELECT id FROM docs WHERE docs MATCH ? ORDER BY bm25(docs, 0, 3.0, 1.0) LIMIT ?", args: [ftsMatch(terms), 10 + hidden.size] });
      out.push(rows.rows.map((r) => String(r.id)).filter((id) => !hidden.has(id)));
    }
    return out;
  } finally {
    db.close();
    rmSync(file, { force: true });
  }
}

/** The product's pages (concept pages with id `concept:<slug>`), to tell what page text costs from what retrieval does. */
type PageDocs = (RetrievalSet["docs"][number] & { kind: string; searchText: string })[];

async function product(set: RetrievalSet, limits: number[], neighbour?: RetrievalSet): Promise<{ rankings: Map<string, string[][]>; pages: PageDocs }> {
  const server = await startEvalServer();
  try {
    if (neighbour) {
      const { brain: other } = await server.api("/api/v1/brains", { name: neighbour.name });
      await loadSources(server, other.id, neighbour.docs.map((d) => ({ externalId: d.id, title: d.title, content: d.text })));
    }
    const { brain } = await server.api("/api/v1/brains", { name: set.name });
    const sourceOf = await loadSources(server, brain.id, set.docs.map((d) => ({ externalId: d.id, title: d.title, content: d.text })));
    const docOfSource = new Map([...sourceOf].map(([doc, source]) => [source, doc]));
    const slugSource = await pageSources(server, brain.id);
    const rows = await server.running.ctx.db.all<{ slug: string; kind: string; title: string; markdown: string; search_text: string | null; source_id: string | null }>(
      sql`SELECT slug, kind, title, markdown, search_text, source_id FROM pages WHERE brain_id = ${brain.id}`,
    );
    const pages: PageDocs = rows.map((r) => ({
      id: r.kind === "concept" ? `concept:${r.slug}` : (docOfSource.get(r.source_id ?? "") ?? "?"),
      kind: r.kind,
      title: r.title,
      text: r.markdown,
      searchText: r.search_text ?? r.markdown,
    }));
    const docOf = (slug: string) => docOfSource.get(slugSource.get(slug) ?? "") ?? "?";
    const out = new Map<string, string[][]>();
    for (const limit of limits) {
      const rankings: string[][] = [];
      for (const q of set.queries) {
        const { pages } = await server.api(`/api/v1/brains/${brain.id}/context`, { query: q.query, limit });
        rankings.push(pages.map((p: any) => docOf(p.slug)));
      }
      out.set(`context ${limit}`, rankings);
    }
    // The retriever as /context runs it (limit 10), without link expansion and without concept seeds.
    const retriever = answerService(server.running.ctx).retriever;
    const old: Rerank = (db, blended, terms, stats) => expandAlongLinks(db, blended, terms, stats);
    for (const [label, opts] of [["no expansion", { expand: false }], ["old ranking", { rerank: old }], ["no concept seeds", { concepts: false }]] as const) {
      const rankings: string[][] = [];
      for (const q of set.queries) {
        const r = await retriever.retrieve({ brains: [{ id: brain.id }], query: q.query, limit: 10, ...opts });
        rankings.push(r.pages.map((p) => docOf(p.slug)));
      }
      out.set(label, rankings);
    }
    return { rankings: out, pages };
  } finally {
    await server.close();
  }
}

const shared = process.argv.includes("--shared");
const sets = [clapnq(), squad()];
for (const set of sets) {
  console.log(`\n${set.name}: ${set.docs.length} documents, ${set.queries.length} queries`);
  console.log(`  bare FTS5 (DESIGN.md)        ${metrics(await bareFts(set), set)}`);
  const { rankings, pages } = await product(set, [10, 5], shared ? sets.find((s) => s !== set) : undefined);
  if (shared) console.log(`  (the server also holds ${sets.find((s) => s !== set)!.name} in another brain)`);
  console.log(`  /context limit 10            ${metrics(rankings.get("context 10")!, set)}`);
  console.log(`  /context default (5)         ${metrics(rankings.get("context 5")!, set)}`);
  console.log(`  retriever, no expansion      ${metrics(rankings.get("no expansion")!, set)}`);
  console.log(`  retriever, old ranking       ${metrics(rankings.get("old ranking")!, set)}   (hand-set link expansion)`);
  console.log(`  retriever, no concept seeds  ${metrics(rankings.get("no concept seeds")!, set)}`);
  // Attribution: the bare index over the product's pages; concept pages indexed but never ranked (as /context).
  const concepts = new Set(pages.filter((p) => p.kind === "concept").map((p) => p.id));
  const sourcePages = pages.filter((p) => p.kind !== "concept");
  console.log(`  bare, markdown + concepts    ${metrics(await bareFts({ ...set, docs: pages }, concepts), set)}   (one index, before 0013)`);
  console.log(`  bare, markdown               ${metrics(await bareFts({ ...set, docs: sourcePages }), set)}   (concept pages apart)`);
  console.log(`  bare, search_text + concepts ${metrics(await bareFts({ ...set, docs: pages.map((p) => ({ ...p, text: p.searchText })) }, concepts), set)}`);
  console.log(`  bare, search_text            ${metrics(await bareFts({ ...set, docs: sourcePages.map((p) => ({ ...p, text: p.searchText })) }), set)}   (what 0013 indexes)`);
}
process.exit(0);
