// BM25 ranks with each brain's own statistics (issue 58): a word every page of a brain shares weighs little
// in that brain, however rare it is among the server's other brains, and a word rare in the brain weighs much
// though the server's other brains use it everywhere.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { brainRanking } from "../../src/retrieval/brain-statistics";
import { brainTermStats } from "../../src/retrieval/brain-term-stats";
import { createTermStats } from "../../src/retrieval/lexical";
import { expectJson, startTestServer, type TestServer } from "../support/server";
import { addText, newBrain, waitForSource } from "../support/sources";

const ISLAND: Record<string, string> = {
  "Kestrel Museum": "The Kestrel museum tells the story of Kestrel island: Kestrel fishermen, Kestrel boats and the Kestrel lifeboat.",
  "Kestrel Chapel": "The Kestrel chapel was built by Kestrel masons in 1820 on the Kestrel headland.",
  "Kestrel Lighthouse": "The Kestrel lighthouse was lit in 1859 and watches over Kestrel sound.",
  "Kestrel Market": "The Kestrel market sells Kestrel crab and Kestrel cheese every Saturday.",
  Crossing: "The ferry to the mainland leaves the harbour at nine each morning.",
};

let s: TestServer;
let island: string;
beforeAll(async () => {
  s = await startTestServer();
  // Another brain on the server where "ferry" is in nearly every page: the server's statistics call it common.
  const timetables = await newBrain(s, "Timetables");
  const other: string[] = [];
  for (let i = 0; i < 40; i++)
    other.push((await addText(s, timetables, `Route ${i}`, `Route ${i} is a ferry line; the ferry calls at pier ${i} on the hour.`)).source.id);
  island = await newBrain(s, "Island");
  const mine: string[] = [];
  for (const [title, content] of Object.entries(ISLAND)) mine.push((await addText(s, island, title, content)).source.id);
  for (const id of other) await waitForSource(s, timetables, id);
  for (const id of mine) await waitForSource(s, island, id);
}, 60_000);
afterAll(() => s.close());

test("a word every page of the brain shares does not outrank the brain's rare word", async () => {
  const { pages } = await expectJson(await s.api(`/api/v1/brains/${island}/context`, { method: "POST", json: { query: "When does the Kestrel ferry leave?", limit: 3 } }), 200);
  expect(pages[0].title).toBe("Crossing");
});

test("the other brain ranks with its own statistics too", async () => {
  const timetables = (await expectJson(await s.api("/api/v1/brains"), 200)).brains.find((b: any) => b.name === "Timetables").id;
  const { pages } = await expectJson(await s.api(`/api/v1/brains/${timetables}/context`, { method: "POST", json: { query: "ferry pier 7", limit: 2 } }), 200);
  expect(pages[0].title).toBe("Route 7");
});

test("the link ranker's term statistics are the brain's, counted now, whatever the server's cache holds", async () => {
  const server = await createTermStats(s.ctx.db)(["ferry", "kestrel", "zeppelin"]);
  // The server's counts: 45 source pages, "ferry" in 41 of them.
  expect(server.pageCount).toBeGreaterThanOrEqual(45);
  expect(server.documentFrequency.get("ferry")).toBeGreaterThanOrEqual(41);
  const mine = await brainTermStats(s.ctx.db, [island], ["ferry", "kestrel", "zeppelin", "ferry"], server);
  expect(mine.pageCount).toBe(5);
  expect(Object.fromEntries(mine.documentFrequency)).toEqual({ ferry: 1, kestrel: 4, zeppelin: 0 });
  // A brain that does not exist (or holds nothing) counts nothing, and no term is no statement.
  const none = await brainTermStats(s.ctx.db, ["no-such-brain"], ["ferry"], server);
  expect(none.pageCount).toBe(0);
  expect(none.documentFrequency.get("ferry")).toBe(0);
  expect((await brainTermStats(s.ctx.db, [island], [], server)).documentFrequency.size).toBe(0);
});

test("a term's matches are read once and filtered to the brain, never looked up page by page", async () => {
  // Given `rowid IN (...)` as a constraint, FTS5 looks the term up once per page of the brain (index string
  // "=M"): a 1,800-page brain took seconds a question. Every full-text statement these two run is planned.
  const statements: string[] = [];
  const client = (s.ctx.db as unknown as { $client: { execute(stmt: { sql: string; args: unknown[] }): Promise<unknown> } }).$client;
  const recording = { $client: { execute: (stmt: { sql: string; args: unknown[] }) => (statements.push(stmt.sql), client.execute(stmt)) } } as unknown as typeof s.ctx.db;
  const server = await createTermStats(s.ctx.db)(["ferry", "kestrel"]);
  await brainTermStats(recording, [island], ["ferry", "kestrel"], server);
  await brainRanking(recording, "pages_fts", [island], ["ferry", "kestrel"], 20);
  await brainRanking(recording, "concept_fts", [island], ["kestrel"], 20);
  const fullText = statements.filter((sql) => / MATCH \?/.test(sql));
  expect(fullText.length).toBeGreaterThanOrEqual(3);
  for (const sql of fullText) {
    const args = [...sql.matchAll(/\?/g)].map((_, i) => (i === 0 ? JSON.stringify([island]) : "kestrel"));
    const plan = await s.ctx.database.client.execute({ sql: `EXPLAIN QUERY PLAN ${sql}`, args });
    const scans = plan.rows.map((r) => String(r.detail)).filter((d) => / VIRTUAL TABLE INDEX /.test(d));
    expect(scans.length).toBeGreaterThan(0);
    for (const scan of scans) expect(scan).not.toContain("=");
  }
});
