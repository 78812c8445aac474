// A page's graph degree (links from it + links to its slug, counted when the graph is read and cached while
// the brain is unchanged) and a brain's source count (kept by triggers, migration 0015). After every kind of
// change over real HTTP (sources added, reprocessed and deleted, concept pages made and removed, page edits
// adding and dropping links, a page created after links to it) each equals the count taken from scratch,
// and the graph orders pages by it. On a database made by the schema before 0015, the count is back-filled,
// 0016 drops the degrees 0015 kept, and nothing is lost.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { sql } from "drizzle-orm";
import { migrate } from "../../src/db/client";
import { databaseBefore } from "../support/migrations";
import { expectJson, startTestServer, tempDir, type TestServer } from "../support/server";
import { addText, newBrain, waitForSource } from "../support/sources";

/** Degrees counted from scratch. */
const COUNTED = `SELECT p.slug,
  (SELECT count(*) FROM page_links l WHERE l.from_page_id = p.id) + (SELECT count(*) FROM page_links l WHERE l.brain_id = p.brain_id AND l.to_slug = p.slug) AS counted
  FROM pages p WHERE p.brain_id = ?`;

let s: TestServer;
let brainId: string;
const sources: Record<string, string> = {};
beforeAll(async () => {
  s = await startTestServer();
  brainId = await newBrain(s, "Harbours");
});
afterAll(() => s.close());

async function expectDegreesCounted() {
  const rows = (await s.ctx.database.client.execute({ sql: COUNTED, args: [brainId] })).rows;
  expect(rows.length).toBeGreaterThan(0);
  // The graph gives every page its degree, in the order counting gives: degree descending, then slug.
  const graph = await expectJson(await s.api(`/api/v1/brains/${brainId}/graph?limit=5000`), 200);
  const expected = [...rows].map((r) => ({ slug: String(r.slug), degree: Number(r.counted) })).sort((a, b) => b.degree - a.degree || (a.slug < b.slug ? -1 : 1));
  expect(graph.nodes.map((n: any) => ({ slug: n.slug, degree: n.degree }))).toEqual(expected);
  for (const kind of ["source", "note", "concept"]) {
    const top = await expectJson(await s.api(`/api/brains/${brainId}/graph?kind=${kind}&limit=3`), 200);
    expect(top.nodes.every((n: any) => n.kind === kind)).toBe(true);
  }
}
const sourceCount = async () => (await expectJson(await s.api(`/api/v1/brains/${brainId}`), 200)).brain.sourceCount;
const listed = async () => (await expectJson(await s.api(`/api/v1/brains`), 200)).brains.find((b: any) => b.id === brainId).sourceCount;

describe("degrees and source counts after every change", () => {
  test("sources added (concept pages appear), a note linking pages, an edit adding and dropping links", async () => {
    for (const [name, title, content, mode] of [
      ["pier", "Pier building", "Engineer Lotte Varn built the north pier of Gullhaven. Lotte Varn used granite from the Askel hills.", "text"],
      ["family", "Varn family", "Lotte Varn was born in Gullhaven in 1850. Her brother sailed to Norhaven from Gullhaven.", "text"],
      ["quarry", "Askel quarry", "The Askel hills quarry sent granite to Gullhaven and to Norhaven.", "text"],
      ["note", "Harbour note", "See [[pier-building]], [[varn-family]] and [[lighthouse-keeper]] (not written yet).", "note"],
    ]) {
      sources[name!] = (await addText(s, brainId, title!, content!, { mode })).source.id;
      await waitForSource(s, brainId, sources[name!]!);
    }
    expect(await sourceCount()).toBe(4);
    expect(await listed()).toBe(4);
    await expectDegreesCounted();
    const put = (slug: string, markdown: string) => s.api(`/api/v1/brains/${brainId}/pages/${slug}`, { method: "PUT", json: { markdown } });
    await expectJson(await put("askel-quarry", "Granite for [[pier-building]], [[varn-family]] and [[askel-quarry]] itself."), 200);
    await expectDegreesCounted();
    await expectJson(await put("askel-quarry", "Granite, no links now."), 200);
    await expectDegreesCounted();
  });

  test("a page created after links to its slug starts with them counted; reprocess and delete keep counts exact", async () => {
    // [[lighthouse-keeper]] was linked before any such page existed.
    const keeper = (await addText(s, brainId, "Lighthouse keeper", "The lighthouse keeper of Gullhaven kept the lamp lit.")).source.id;
    await waitForSource(s, brainId, keeper);
    const node = (await expectJson(await s.api(`/api/v1/brains/${brainId}/graph?around=lighthouse-keeper`), 200)).nodes.find((n: any) => n.slug === "lighthouse-keeper");
    expect(node.degree).toBeGreaterThanOrEqual(1);
    await expectDegreesCounted();
    await expectJson(await s.api(`/api/v1/brains/${brainId}/sources/${sources.family}/reprocess`, { method: "POST" }), 202);
    await waitForSource(s, brainId, sources.family!);
    await expectDegreesCounted();
    expect((await s.api(`/api/v1/brains/${brainId}/sources/${sources.pier}`, { method: "DELETE" })).status).toBe(204);
    // Concept pages whose mentions went are refreshed by the job loop: wait for it, then count.
    for (let i = 0; i < 200 && Number((await s.ctx.database.client.execute("SELECT count(*) AS n FROM jobs WHERE status IN ('queued','running')")).rows[0]!.n) > 0; i++) await Bun.sleep(25);
    expect(await sourceCount()).toBe(4);
    expect(await listed()).toBe(4);
    await expectDegreesCounted();
  });

  test("source counts: a batch with a repeated externalId counts once; a deleted brain takes its count with it", async () => {
    const other = await newBrain(s, "Batch counts");
    const items = [
      { kind: "text", title: "One", content: "First text.", externalId: "a" },
      { kind: "text", title: "Two", content: "Second text.", externalId: "b" },
    ];
    expect((await expectJson(await s.api(`/api/v1/brains/${other}/sources/batch`, { method: "POST", json: { sources: items } }), 200)).created).toBe(2);
    const again = await s.api(`/api/v1/brains/${other}/sources/batch`, { method: "POST", json: { sources: [...items, { kind: "text", title: "Three", content: "Third.", externalId: "c" }] } });
    expect((await expectJson(again, 200)).created).toBe(1);
    expect((await expectJson(await s.api(`/api/v1/brains/${other}`), 200)).brain.sourceCount).toBe(3);
    const counted = await s.ctx.db.all<{ n: number }>(sql`SELECT count(*) AS n FROM sources WHERE brain_id = ${other}`);
    expect(Number(counted[0]!.n)).toBe(3);
    expect((await s.api(`/api/v1/brains/${other}`, { method: "DELETE" })).status).toBe(204);
    expect((await s.api(`/api/v1/brains/${other}`)).status).toBe(404);
    expect(await listed()).toBe(4); // other brains untouched
  });
});

test("0015 and 0016 on a database made by the schema before them: source counts back-filled, degrees dropped, nothing lost", async () => {
  const dir = tempDir();
  const db = await databaseBefore("0015", dir);
  const c = db.client;
  await c.executeMultiple(`
    INSERT INTO accounts (id, name, plan_id) VALUES ('acc', 'A', 'free');
    INSERT INTO brains (id, account_id, name, slug) VALUES ('b1', 'acc', 'One', 'one'), ('b2', 'acc', 'Two', 'two'), ('b3', 'acc', 'Empty', 'empty');
    INSERT INTO sources (id, brain_id, type, title, status) VALUES ('s1', 'b1', 'text', 'T', 'ready'), ('s2', 'b1', 'note', 'N', 'ready'), ('s3', 'b2', 'text', 'U', 'ready');
    INSERT INTO pages (id, brain_id, source_id, kind, slug, title, markdown) VALUES
      (1, 'b1', 's1', 'source', 'rockets', 'Rockets', 'Rockets [[fuel]] [[gone]]'),
      (2, 'b1', 's2', 'note', 'fuel', 'Fuel', 'Fuel for [[rockets]]'),
      (3, 'b1', NULL, 'concept', 'kerosene', 'Kerosene', 'Kerosene [[rockets]] [[fuel]]'),
      (4, 'b2', 's3', 'source', 'rockets', 'Rockets', 'Other brain');
    INSERT INTO page_links (from_page_id, brain_id, to_slug) VALUES (1, 'b1', 'fuel'), (1, 'b1', 'gone'), (2, 'b1', 'rockets'), (3, 'b1', 'rockets'), (3, 'b1', 'fuel');
  `);
  await migrate(c);
  const pages = (await c.execute("SELECT id, markdown FROM pages ORDER BY id")).rows.map((r) => [Number(r.id), r.markdown]);
  expect(pages).toEqual([
    [1, "Rockets [[fuel]] [[gone]]"],
    [2, "Fuel for [[rockets]]"],
    [3, "Kerosene [[rockets]] [[fuel]]"],
    [4, "Other brain"],
  ]);
  const columns = (await c.execute("PRAGMA table_info(pages)")).rows.map((r) => String(r.name));
  expect(columns).not.toContain("degree");
  const triggers = (await c.execute("SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE '%degree%'")).rows;
  expect(triggers).toEqual([]);
  expect((await c.execute("SELECT count(*) AS n FROM page_links")).rows[0]!.n).toBe(5);
  const counts = (await c.execute("SELECT id, source_count FROM brains ORDER BY id")).rows.map((r) => [r.id, Number(r.source_count)]);
  expect(counts).toEqual([["b1", 2], ["b2", 1], ["b3", 0]]);
  // Writes after the migration need no degree bookkeeping; the source count is still kept.
  await c.execute("INSERT INTO pages (id, brain_id, source_id, kind, slug, title, markdown) VALUES (5, 'b1', NULL, 'concept', 'gone', 'Gone', 'x')");
  await c.execute("DELETE FROM sources WHERE id = 's1'");
  expect(Number((await c.execute("SELECT source_count FROM brains WHERE id = 'b1'")).rows[0]!.source_count)).toBe(1);
  db.close();
  rmSync(dir, { recursive: true, force: true });
});
