// Migration 0008 rebuilds `pages` (nullable source, kind, edited, revision): on a database made by the
// previous schema, every page keeps its id, its full-text row and its vectors, and notes become kind note.
import { expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { migrate } from "../../src/db/client";
import { migrations } from "../../src/db/migrations";
import { tempDir } from "../support/server";
import { databaseBefore } from "../support/migrations";

test("pages, ids, FTS rows and vectors survive 0008 on a database made by the previous schema", async () => {
  const dir = tempDir();
  const db = await databaseBefore("0008", dir);
  const c = db.client;
  expect((await c.execute("PRAGMA foreign_keys")).rows[0]?.foreign_keys).toBe(1); // the cascade risk is real
  // Rows as the schema before 0008 held them.
  await c.executeMultiple(`
    INSERT INTO accounts (id, name, plan_id) VALUES ('acc', 'A', 'free');
    INSERT INTO brains (id, account_id, name, slug) VALUES ('brn', 'acc', 'B', 'b');
    INSERT INTO sources (id, brain_id, type, title, status) VALUES ('s1', 'brn', 'text', 'T', 'ready'), ('s2', 'brn', 'note', 'N', 'ready');
    INSERT INTO pages (id, brain_id, source_id, slug, title, markdown) VALUES
      (7, 'brn', 's1', 'rockets', 'Rockets', 'Rockets burn kerosene.'),
      (9, 'brn', 's2', 'my-note', 'My note', 'A verbatim note about zeppelins.');
  `);
  await c.execute("INSERT INTO page_vectors (page_id, brain_id, model, embedding) VALUES (7, 'brn', 'm', vector32('[1,0,0]')), (9, 'brn', 'm', vector32('[0,1,0]'))");

  expect(await migrate(c)).toEqual(migrations.filter((m) => m.tag >= "0008").map((m) => m.tag));

  const pages: unknown[] = (await c.execute("SELECT id, slug, kind, source_id, edited, revision FROM pages ORDER BY id")).rows.map((r) => ({ ...r }));
  expect(pages).toEqual([
    { id: 7, slug: "rockets", kind: "source", source_id: "s1", edited: 0, revision: 1 },
    { id: 9, slug: "my-note", kind: "note", source_id: "s2", edited: 0, revision: 1 },
  ]);
  const fts = await c.execute("SELECT rowid FROM pages_fts WHERE pages_fts MATCH 'zeppelins OR kerosene' ORDER BY rowid");
  expect(fts.rows.map((r) => Number(r.rowid))).toEqual([7, 9]);
  const vectors = await c.execute("SELECT page_id, vector_extract(embedding) AS v FROM page_vectors ORDER BY page_id");
  expect(vectors.rows.map((r) => [Number(r.page_id), String(r.v)])).toEqual([[7, "[1,0,0]"], [9, "[0,1,0]"]]);
  // Triggers work on the new table: FTS follows updates, vectors still cascade, concept pages need no source.
  // (Since 0013 the index reads search_text: whoever changes a page's words writes it.)
  await c.execute("UPDATE pages SET markdown = 'Rockets burn hydrogen.', search_text = 'Rockets burn hydrogen.' WHERE id = 7");
  expect((await c.execute("SELECT rowid FROM pages_fts WHERE pages_fts MATCH 'hydrogen'")).rows).toHaveLength(1);
  expect((await c.execute("SELECT rowid FROM pages_fts WHERE pages_fts MATCH 'kerosene'")).rows).toHaveLength(0);
  await c.execute("INSERT INTO pages (brain_id, source_id, kind, slug, title, markdown) VALUES ('brn', NULL, 'concept', 'zeppelin', 'Zeppelin', 'x')");
  await c.execute("DELETE FROM sources WHERE id = 's1'");
  expect((await c.execute("SELECT page_id FROM page_vectors")).rows.map((r) => Number(r.page_id))).toEqual([9]);
  const versions = await c.execute("SELECT version FROM page_vector_versions WHERE brain_id = 'brn'");
  expect(Number(versions.rows[0]?.version)).toBeGreaterThanOrEqual(3); // version triggers recreated
  db.close();
  rmSync(dir, { recursive: true, force: true });
});
