// The counts a query reads besides BM25 itself: a brain's page count (capped, kept only at the cap), the
// server's document frequencies (one statement for all of a query's new terms), and the owners of the index's
// best pages (the first `limit` looked up first). Each one's shortcut must give what a fresh count gives.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { cappedPageCount, PER_BRAIN_PAGES } from "../../src/retrieval/brain-statistics";
import { createTermStats, searchLexical } from "../../src/retrieval/lexical";
import { startTestServer, type TestServer } from "../support/server";
import { newBrain } from "../support/sources";

let s: TestServer;
let large: string;
let small: string;
const inBrain = (id: string) => JSON.stringify([id]);

/** The database handle with every statement it runs recorded. */
function recorded(statements: string[]) {
  const client = (s.ctx.db as unknown as { $client: { execute(stmt: { sql: string; args: unknown[] }): Promise<unknown> } }).$client;
  return { $client: { execute: (stmt: { sql: string; args: unknown[] }) => (statements.push(stmt.sql), client.execute(stmt)) } } as unknown as typeof s.ctx.db;
}

async function writePages(brainId: string, pages: { title: string; body: string }[]) {
  await s.ctx.db.run(sql`INSERT OR IGNORE INTO sources (id, brain_id, type, title, status, content) VALUES (${`src_${brainId}`}, ${brainId}, 'note', 'pages', 'ready', '')`);
  for (let at = 0; at < pages.length; at += 500)
    await s.ctx.db.batch(
      pages.slice(at, at + 500).map((p, i) =>
        s.ctx.db.run(sql`INSERT INTO pages (brain_id, source_id, slug, title, markdown) VALUES (${brainId}, ${`src_${brainId}`}, ${`p-${crypto.randomUUID()}`}, ${p.title}, ${p.body})`),
      ) as unknown as Parameters<TestServer["ctx"]["db"]["batch"]>[0],
    );
}

beforeAll(async () => {
  s = await startTestServer();
  large = await newBrain(s, "Large");
  small = await newBrain(s, "Small");
  // The large brain holds nearly all of the index (its ranking is the index's); the small brain's pages say
  // "walrus" in their titles, so the index's best pages for it are the small brain's.
  await writePages(large, Array.from({ length: PER_BRAIN_PAGES + 100 }, (_, i) => ({ title: `Note ${i}`, body: `entry ${i} of the log${i % 10 === 0 ? ", a walrus was seen" : ""}.` })));
  await writePages(small, Array.from({ length: 12 }, (_, i) => ({ title: `Walrus walrus ${i}`, body: "The walrus colony." })));
}, 60_000);
afterAll(() => s.close());

test("a small brain's page count is counted at every query; a count at the cap is kept", async () => {
  expect(await cappedPageCount(s.ctx.db, "pages_fts", inBrain(small))).toBe(12);
  await writePages(small, [{ title: "Seal", body: "A seal." }]);
  expect(await cappedPageCount(s.ctx.db, "pages_fts", inBrain(small))).toBe(13);
  expect(await cappedPageCount(s.ctx.db, "pages_fts", inBrain(large))).toBe(PER_BRAIN_PAGES);
  expect(await cappedPageCount(s.ctx.db, "concept_fts", inBrain(large))).toBe(0);
  expect(await cappedPageCount(s.ctx.db, "pages_fts", inBrain("no-such-brain"))).toBe(0);
});

test("document frequencies are counted in one statement, repeated and unknown terms among them", async () => {
  const statements: string[] = [];
  const termStats = createTermStats(recorded(statements));
  const stats = await termStats(["walrus", "colony", "walrus", "zeppelin"]);
  expect(Object.fromEntries(stats.documentFrequency)).toEqual({ walrus: 12 + (PER_BRAIN_PAGES + 100) / 10, colony: 12, zeppelin: 0 });
  expect(statements.filter((q) => q.includes("MATCH")).length).toBe(1);
  // Within the cache's lifetime only the new term is counted.
  const again = await termStats(["colony", "seal"]);
  expect(Object.fromEntries(again.documentFrequency)).toEqual({ colony: 12, seal: 1 });
  expect(statements.filter((q) => q.includes("MATCH")).length).toBe(2);
  expect(statements.at(-1)).not.toContain("UNION ALL");
});

test("the index's best pages belonging to other brains do not crowd a brain's own out", async () => {
  const statements: string[] = [];
  const hits = await searchLexical(recorded(statements), [large], ["walrus"], 5);
  expect(hits.length).toBe(5);
  expect(new Set(hits.map((h) => h.brainId))).toEqual(new Set([large]));
  // Found among the index's best pages by their owners, without ranking again within the brain.
  expect(statements.some((q) => q.includes("CROSS JOIN pages"))).toBe(false);
  // Best first, as the index ranks them.
  expect(hits.map((h) => h.score)).toEqual([...hits.map((h) => h.score)].sort((a, b) => b - a));
  const theirs = await searchLexical(s.ctx.db, [small], ["walrus"], 5);
  expect(theirs.length).toBe(5);
  expect(new Set(theirs.map((h) => h.brainId))).toEqual(new Set([small]));
  const both = await searchLexical(s.ctx.db, [large, small], ["walrus"], 20);
  expect(both.slice(0, 12).every((h) => h.brainId === small)).toBe(true);
  expect(both.length).toBe(20);
});
