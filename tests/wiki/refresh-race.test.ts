// A source written while a refresh pass plans a concept (another job batch, between the pass's read of the
// concept's mentions and its write) marks the concept dirty again; the mark was already there, so the pass's
// removal of it lost the new mention: a concept named by two sources stayed without its page. The pass now
// removes a mark only when the mentions it planned from are still those. Real database file; the concurrent
// write is run right after the pass's read of the mentions.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Database, RootDb } from "../../src/db/client";
import { refreshDirtyConcepts } from "../../src/concepts";
import { currentDatabase } from "../support/migrations";

let db: Database;
const rows = async (sql: string) => (await db.client.execute(sql)).rows.map((r) => Object.values(r).join(" "));

beforeAll(async () => {
  db = await currentDatabase(["b1"]);
  await db.client.executeMultiple(`
    INSERT INTO sources (id, brain_id, type, title, status) VALUES ('s1', 'b1', 'text', 'One', 'ready'), ('s2', 'b1', 'text', 'Two', 'ready'), ('s3', 'b1', 'text', 'Three', 'ready');
    INSERT INTO pages (brain_id, source_id, kind, slug, title, markdown) VALUES
      ('b1', 's1', 'source', 'one', 'One', 'The tide gauge at Velsmouth.'),
      ('b1', 's2', 'source', 'two', 'Two', 'A tide gauge logged the surge.'),
      ('b1', 's3', 'source', 'three', 'Three', 'The tide gauge broke.');
  `);
});
afterAll(() => db.close());

const mention = (concept: string, source: string, page: string) =>
  db.client.execute({
    sql: "INSERT INTO concept_mentions (brain_id, concept, source_id, page_slug, surface, sentence, weight) VALUES ('b1', ?, ?, ?, 'tide gauge', 'x', 1)",
    args: [concept, source, page],
  });
const markDirty = (concept: string) => db.client.execute({ sql: "INSERT OR IGNORE INTO concept_dirty (brain_id, concept) VALUES ('b1', ?)", args: [concept] });

/** The database handle, with `between` run right after the refresh reads a concept's mentions (once). */
function withWriteAfterMentionsRead(between: () => Promise<unknown>): RootDb {
  let done = false;
  const client = db.client;
  const $client = {
    execute: async (stmt: { sql: string; args: unknown[] }) => {
      const result = await client.execute(stmt as never);
      if (!done && /^SELECT m\.source_id AS sourceId/.test(stmt.sql)) {
        done = true;
        await between();
      }
      return result;
    },
    batch: (stmts: never[]) => client.batch(stmts),
  };
  return { $client } as unknown as RootDb;
}

test("a concept a second source names while the pass plans it keeps its mark, and the next pass gives it its page", async () => {
  await mention("tide-gauge", "s1", "one");
  await markDirty("tide-gauge");
  // The pass reads one source's mention (no page earned); the second source's write lands before its own write.
  await refreshDirtyConcepts({ db: withWriteAfterMentionsRead(async () => (await mention("tide-gauge", "s2", "two"), await markDirty("tide-gauge"))) }, "b1");
  expect(await rows("SELECT concept FROM concept_dirty")).toEqual(["tide-gauge"]);
  expect(await rows("SELECT slug FROM pages WHERE kind = 'concept'")).toEqual([]);
  await refreshDirtyConcepts({ db: db.db }, "b1");
  expect(await rows("SELECT concept FROM concept_dirty")).toEqual([]);
  expect(await rows("SELECT slug FROM pages WHERE kind = 'concept'")).toEqual(["tide-gauge"]);
});

test("without a write in between the mark goes with the pass, and a new page's mark too", async () => {
  await mention("gauge-house", "s3", "three");
  await markDirty("gauge-house");
  await refreshDirtyConcepts({ db: db.db }, "b1");
  expect(await rows("SELECT concept FROM concept_dirty")).toEqual([]); // one source: no page, mark gone
  expect(await rows("SELECT slug FROM pages WHERE kind = 'concept' ORDER BY slug")).toEqual(["tide-gauge"]);
  // A page being created when a third source's mention lands: made from the two it read, marked to be made again.
  await markDirty("tide-gauge");
  await db.client.execute("DELETE FROM pages WHERE kind = 'concept'");
  await refreshDirtyConcepts({ db: withWriteAfterMentionsRead(async () => (await mention("tide-gauge", "s3", "three"), await markDirty("tide-gauge"))) }, "b1");
  expect(await rows("SELECT concept FROM concept_dirty")).toEqual(["tide-gauge"]);
  await refreshDirtyConcepts({ db: db.db }, "b1");
  expect(await rows("SELECT concept FROM concept_dirty")).toEqual([]);
  const markdown = String((await db.client.execute("SELECT markdown FROM pages WHERE slug = 'tide-gauge'")).rows[0]!.markdown);
  for (const source of ["One", "Two", "Three"]) expect(markdown).toContain(source);
});
