// Writes of the wiki that keep an import's log small. A page's graph edges are re-derived from its markdown
// by difference: the links it lost go, new ones come, and the ones it keeps are not deleted and written again
// (a concept page rewritten for one new mention kept most of its edges, and each rewrite touched the backlink
// index at as many random places as it had links). Pages of one kind are listed through partial indexes.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { pageLinkStatements, runBatch } from "../../src/links/page-links";
import { CONCEPT_PAGES, stmt } from "../../src/db/plain";
import { NO_SOURCES, startTestServer, type TestServer } from "../support/server";
import { newBrain } from "../support/sources";

let s: TestServer;
let brainId: string;
beforeAll(async () => {
  s = await startTestServer(NO_SOURCES);
  brainId = await newBrain(s, "Links");
});
afterAll(() => s.close());

const pageId = () => stmt("SELECT id FROM pages WHERE brain_id = ? AND slug = 'hub'", brainId);
const targets = async () =>
  (await s.ctx.database.client.execute({ sql: "SELECT to_slug FROM page_links l JOIN pages p ON p.id = l.from_page_id WHERE p.slug = 'hub' ORDER BY to_slug", args: [] })).rows.map((r) => String(r.to_slug));

test("lost links are deleted, kept links stay untouched, new links are added", async () => {
  await s.ctx.database.client.execute({ sql: "INSERT INTO pages (brain_id, kind, slug, title, markdown) VALUES (?, 'concept', 'hub', 'Hub', '')", args: [brainId] });
  await runBatch(s.ctx.db, pageLinkStatements(brainId, pageId(), "[[alpha]] and [[beta|Beta]] and [[gamma]]"));
  expect(await targets()).toEqual(["alpha", "beta", "gamma"]);

  const [deleted, inserted] = await runBatch(s.ctx.db, pageLinkStatements(brainId, pageId(), "[[beta]], [[gamma|the gamma]] and [[delta]]"));
  expect(await targets()).toEqual(["beta", "delta", "gamma"]);
  expect(deleted!.rowsAffected).toBe(1); // alpha only
  expect(inserted!.rowsAffected).toBe(1); // delta only

  // The same markdown again writes nothing; no links at all removes every edge.
  const again = await runBatch(s.ctx.db, pageLinkStatements(brainId, pageId(), "[[beta]], [[gamma|the gamma]] and [[delta]]"));
  expect(again.map((r) => r.rowsAffected)).toEqual([0, 0]);
  await runBatch(s.ctx.db, pageLinkStatements(brainId, pageId(), "No links left."));
  expect(await targets()).toEqual([]);
});

test("pages of one kind are read in slug order from an index (partial for concept and note pages, migration 0021)", async () => {
  const plan = async (kind: string) =>
    (
      await s.ctx.database.client.execute({
        sql: `EXPLAIN QUERY PLAN SELECT slug FROM pages WHERE brain_id = ? AND kind = '${kind}' AND slug > ? ORDER BY slug LIMIT 51`,
        args: [brainId, ""],
      })
    ).rows.map((r) => String(r.detail));
  expect(await plan("concept")).toEqual([expect.stringContaining("INDEX pages_brain_concept")]);
  expect(await plan("note")).toEqual([expect.stringContaining("INDEX pages_brain_note")]);
  // Source pages, most of a brain, go through the brain's slug index with the kind as a filter: no sort step.
  expect(await plan("source")).toEqual([expect.stringContaining("INDEX pages_brain_slug")]);
  const indexes = (await s.ctx.database.client.execute("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'pages'")).rows.map((r) => String(r.name));
  expect(indexes).not.toContain("pages_brain_kind");
});

test("concept pages probed by slug read the partial index of concept pages, and find only concept pages", async () => {
  // "hub" is a concept page (above); a source page takes "spoke".
  await s.ctx.database.client.execute({ sql: "INSERT INTO pages (brain_id, kind, slug, title, markdown) VALUES (?, 'source', 'spoke', 'Spoke', '')", args: [brainId] });
  const probe = `SELECT p.slug FROM json_each(?) j CROSS JOIN pages p ${CONCEPT_PAGES} ON p.brain_id = ? AND p.slug = j.value WHERE p.kind = 'concept'`;
  const args = [JSON.stringify(["hub", "spoke", "nowhere"]), brainId];
  const plan = (await s.ctx.database.client.execute({ sql: `EXPLAIN QUERY PLAN ${probe}`, args })).rows.map((r) => String(r.detail));
  expect(plan).toContainEqual(expect.stringContaining("COVERING INDEX pages_brain_concept"));
  expect((await s.ctx.database.client.execute({ sql: probe, args })).rows.map((r) => r.slug)).toEqual(["hub"]);
});
