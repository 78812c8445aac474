// The wiki's cost per source, and that it does not grow with the brain: the ingestion pipeline's steps
// called in process (synthesis → slugs → concepts → one guarded write → concept pages), on real text
// (ClapNQ passages, each source a passage plus a shared name so concepts recur across sources), into
// one brain grown to `sizes` sources. Baseline, side by side in the same run: the same pipeline with the
// concept step off, into a second brain of the same database. Prints sources/s and ms per source at each
// size, and the NLP extraction alone (ms per source).
//   bun scripts/bench-wiki.ts [sizes=1000,20000] [window=300]
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import { extractConcepts, refreshDirtyConcepts } from "../src/concepts";
import { migrate, openDatabase } from "../src/db/client";
import { planConcepts } from "../src/jobs/ingest-source/concepts";
import { synthesize } from "../src/jobs/ingest-source/synthesis";
import { allocateSlugs, writePages } from "../src/jobs/ingest-source/write-pages";
import { createLogger } from "../src/lib/log";
import { EVAL_DIR } from "./eval-common";

const sizes = (process.argv[2] ?? "1000,20000").split(",").map(Number);
const window = Number(process.argv[3] ?? 300);
const passages = ["dev_answerable.jsonl", "dev_unanswerable.jsonl"].flatMap((f) =>
  readFileSync(join(EVAL_DIR, "clapnq", f), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l).passages[0] as { title: string; text: string }),
);
const people = ["Mira Castellan", "Anders Holm", "Ada Quill", "Oren Varga", "Greta Lindqvist", "Emil Okafor"];
const textOf = (i: number) => {
  const p = passages[i % passages.length]!;
  return { title: `${p.title} (${i})`, markdown: `${p.text}\n\nNotes kept by ${people[i % people.length]} in survey ${i}.` };
};

const dir = mkdtempSync(join(tmpdir(), "brainbox-bench-wiki-"));
const database = openDatabase({ dataDir: dir });
await migrate(database.client);
const db = database.db;
const log = createLogger("error");
const signal = new AbortController().signal;
await database.client.executeMultiple(`
  INSERT INTO accounts (id, name, plan_id) VALUES ('acc', 'Bench', 'team');
  INSERT INTO brains (id, account_id, name, slug) VALUES ('with', 'acc', 'With concepts', 'with'), ('without', 'acc', 'Without', 'without');`);

// NLP extraction alone.
{
  const n = 500;
  const t = performance.now();
  for (let i = 0; i < n; i++) {
    const doc = textOf(i);
    extractConcepts([{ slug: `p${i}`, title: doc.title, markdown: doc.markdown }], doc.title);
  }
  console.log(`concept extraction (wink-nlp): ${((performance.now() - t) / n).toFixed(2)} ms per source (${n} ClapNQ passages)`);
}

async function ingest(brainId: string, i: number, concepts: boolean) {
  const id = `${brainId}-${i}`;
  const doc = textOf(i);
  await db.run(sql`INSERT INTO sources (id, brain_id, type, title, status, content) VALUES (${id}, ${brainId}, 'text', ${doc.title}, 'processing', ${doc.markdown})`);
  const source = { id, brainId, revision: 1, type: "text" };
  const drafts = await synthesize(doc, { generator: null, log, signal });
  let pages = await allocateSlugs(db, brainId, id, drafts);
  let plan = null;
  if (concepts) {
    const read = async (text: string, args: (string | number)[]) => (await database.client.execute({ sql: text, args })).rows as unknown as Record<string, unknown>[];
    plan = await planConcepts({ read, generator: null, log }, source, doc.title, pages, signal);
    pages = plan.pages;
  }
  await writePages(db, source, { title: doc.title, content: doc.markdown, pages, concepts: plan?.concepts });
  if (concepts) while ((await refreshDirtyConcepts({ db }, brainId)) > 0);
}

const done = { with: 0, without: 0 };
async function grow(brainId: "with" | "without", to: number) {
  for (; done[brainId] < to; done[brainId]++) await ingest(brainId, done[brainId], brainId === "with");
}
async function measure(brainId: "with" | "without") {
  const t = performance.now();
  for (let k = 0; k < window; k++, done[brainId]++) await ingest(brainId, done[brainId], brainId === "with");
  return (performance.now() - t) / window;
}

console.log(`\nsources/s over ${window} sources added at each brain size (one core, in process, no embeddings):`);
for (const size of sizes) {
  await grow("with", size - window);
  await grow("without", size - window);
  const msWithout = await measure("without");
  const msWith = await measure("with");
  const concepts = await database.client.execute("SELECT count(*) AS n FROM pages WHERE brain_id = 'with' AND kind = 'concept'");
  console.log(
    `  at ${size.toLocaleString("en")} sources: concepts on ${(1000 / msWith).toFixed(0)}/s (${msWith.toFixed(2)} ms), ` +
      `off ${(1000 / msWithout).toFixed(0)}/s (${msWithout.toFixed(2)} ms), ratio ${(msWithout / msWith).toFixed(2)}; ` +
      `concept pages ${concepts.rows[0]!.n}`,
  );
}
database.close();
rmSync(dir, { recursive: true, force: true });
