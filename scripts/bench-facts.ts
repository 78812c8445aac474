// The concept facts of new sources as an extraction thread reads them (src/concepts/facts.ts), on a brain
// kept by the import bench, with and without the filter of slugs the brain might know (known-keys.ts), side
// by side. Each task starts cold, as on the thread: another connection commits before it, and SQLite then
// empties the reader's page cache.
//   KEEP=1 bun scripts/bench-import.ts --sizes 20000 --asks false   (prints "kept DIR")
//   bun scripts/bench-facts.ts DIR/data/brainbox.db [--tasks 300]
import Database from "libsql";
import { extractConcepts } from "../src/concepts/extract";
import { conceptFacts } from "../src/concepts/facts";
import { KnownConceptSlugs } from "../src/concepts/known-keys";
import { syntheticAbstracts } from "./synthetic-abstracts";

const file = process.argv[2];
if (!file || file.startsWith("--")) throw new Error("usage: bun scripts/bench-facts.ts PATH/brainbox.db [--tasks 300]");
const at = process.argv.indexOf("--tasks");
const TASKS = at > 0 ? Number(process.argv[at + 1]) : 300;

const reader = new Database(file, { readonly: true } as ConstructorParameters<typeof Database>[1]);
const writer = new Database(file, {} as ConstructorParameters<typeof Database>[1]);
writer.exec("CREATE TABLE IF NOT EXISTS bench_facts_poke (x)");
const statements = new Map<string, ReturnType<typeof reader.prepare>>();
let reads = 0;
const read = (sql: string, args: (string | number)[]) => {
  reads++;
  let statement = statements.get(sql);
  if (!statement) statements.set(sql, (statement = reader.prepare(sql)));
  return statement.all(args) as Record<string, unknown>[];
};
const { id: brainId, sources } = reader.prepare("SELECT id, source_count AS sources FROM brains ORDER BY source_count DESC LIMIT 1").get() as { id: string; sources: number };

// New sources from the import bench's generator (another seed): some of their concepts are known, most not.
const tasks = syntheticAbstracts(99, TASKS).documents.map((d, i) => {
  const pages = [{ slug: `bench-new-${i}`, title: d.title, markdown: d.content }];
  return { concepts: extractConcepts(pages, d.title), ownSlugs: [pages[0]!.slug] };
});
const known = new KnownConceptSlugs(read);
reader.exec("BEGIN");
let started = performance.now();
await known.of(brainId);
reader.exec("COMMIT");
console.log(`brain of ${sources} sources; the filter's first read: ${(performance.now() - started).toFixed(0)} ms`);

for (const round of [1, 2]) {
  for (const filtered of [false, true]) {
    reads = 0;
    let probed = 0;
    let keys = 0;
    let ms = 0;
    for (const t of tasks) {
      writer.exec("INSERT INTO bench_facts_poke VALUES (1)"); // a commit: the reader's cache is emptied
      started = performance.now(); // the reader's part only
      reader.exec("BEGIN");
      const test = filtered ? await known.of(brainId) : undefined;
      await conceptFacts(read, brainId, "src_bench_new", t.concepts, t.ownSlugs, test);
      reader.exec("COMMIT");
      ms += performance.now() - started;
      keys += t.concepts.length;
      probed += test ? t.concepts.filter((c) => test(c.key)).length : t.concepts.length;
    }
    console.log(`round ${round} ${filtered ? "with the filter   " : "without the filter"} ${(ms / tasks.length).toFixed(3)} ms a source, ${(reads / tasks.length).toFixed(1)} reads, ${probed} of ${keys} keys probed`);
  }
}
writer.exec("DROP TABLE bench_facts_poke");
