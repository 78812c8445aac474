// A brain's BM25 normalizes page length by the brain's own average (issue 58): on a server whose other brain
// holds long pages, a small brain of short pages scores exactly as a bare FTS5 index holding only its pages.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { brainRanking } from "../../src/retrieval/brain-statistics";
import { averageOf, brainPageLengths, indexAverageLength, renormalized, varints } from "../../src/retrieval/document-lengths";
import { bareBrainScores } from "../support/bare-bm25";
import { insertPages } from "../support/pages";
import { expectJson, NO_SOURCES, startTestServer, type TestServer } from "../support/server";

const SHORT = [
  { title: "Pier", markdown: "The pier at Lowmouth is old." },
  { title: "Boathouse", markdown: "The boathouse of Lowmouth by the pier keeps the lifeboat, the crane and the old slipway of Lowmouth harbour." },
  { title: "Chapel", markdown: "The chapel of Lowmouth." },
  { title: "Market", markdown: "Fish are sold at the market each Friday." },
  { title: "Inn", markdown: "The inn serves crab." },
  { title: "School", markdown: "The school has forty pupils." },
  { title: "Mill", markdown: "The mill ground corn until 1910." },
  { title: "Green", markdown: "Cricket is played on the green." },
];
// The other brain: pages a hundred times as long, so the server's average length is theirs.
const LONG = Array.from({ length: 30 }, (_, i) => ({ title: `Survey ${i}`, markdown: `Survey ${i} of the coast. ${"The cliffs and coves of the coast were measured. ".repeat(120)}` }));

let s: TestServer;
let short: string;
beforeAll(async () => {
  s = await startTestServer(NO_SOURCES);
  const brain = async (name: string) => (await expectJson(await s.api("/api/v1/brains", { method: "POST", json: { name } }), 201)).brain.id as string;
  const long = await brain("Surveys");
  await insertPages(s.ctx.db, long, LONG);
  short = await brain("Lowmouth");
  await insertPages(s.ctx.db, short, SHORT);
}, 60_000);
afterAll(() => s.close());

test("a small brain's scores are a bare BM25 over its own pages, whatever length the server's other pages are", async () => {
  const terms = ["pier", "lowmouth"];
  const ranked = await brainRanking(s.ctx.db, "pages_fts", [short], terms, 20);
  const titles = new Map((await s.ctx.database.client.execute("SELECT id, title FROM pages")).rows.map((r) => [Number(r.id), String(r.title)]));
  const expected = await bareBrainScores(SHORT, terms);
  expect(ranked!.length).toBe(expected.size);
  for (const hit of ranked!) expect(hit.score).toBeCloseTo(expected.get(titles.get(hit.page_id)!)!, 9);
  // The long other brain makes the index's average many times the brain's: normalized by it, the long
  // boathouse page (Lowmouth twice) outranks the short chapel page (once); by the brain's own, it does not.
  const inBrain = JSON.stringify([short]);
  const brainAverage = averageOf(await brainPageLengths(s.ctx.db, "pages_fts", inBrain, "kind != 'concept'"));
  expect(await indexAverageLength(s.ctx.db, "pages_fts")).toBeGreaterThan(brainAverage * 20);
  const byIndex = await s.ctx.database.client.execute({
    sql: `SELECT p.title FROM pages_fts JOIN pages p ON p.id = pages_fts.rowid WHERE pages_fts MATCH '"lowmouth"' AND p.brain_id = ? ORDER BY bm25(pages_fts, 3.0, 1.0)`,
    args: [short],
  });
  expect(String(byIndex.rows[0]!.title)).toBe("Boathouse");
  const byBrain = await brainRanking(s.ctx.db, "pages_fts", [short], ["lowmouth"], 20);
  expect(titles.get(byBrain![0]!.page_id)).toBe("Chapel");
  const { pages } = await expectJson(await s.api(`/api/v1/brains/${short}/context`, { method: "POST", json: { query: "Lowmouth", limit: 2 } }), 200);
  expect(pages[0].title).toBe("Chapel");
});

test("the lengths are FTS5's own: renormalizing to the index's average gives bm25() back", async () => {
  const rows = (await s.ctx.database.client.execute({ sql: "SELECT rowid AS id, -bm25(pages_fts, 3.0, 1.0) AS score FROM pages_fts WHERE pages_fts MATCH '\"coast\"'" })).rows;
  expect(rows.length).toBe(LONG.length);
  const average = await indexAverageLength(s.ctx.db, "pages_fts");
  for (const r of rows) expect(renormalized(Number(r.score), 0.5, 900, average, average)).toBeCloseTo(Number(r.score), 12);
  // A page's length: its title's and body's tokens (the shortest, the chapel page: 1 + 4).
  const lengths = await brainPageLengths(s.ctx.db, "pages_fts", JSON.stringify([short]), "kind != 'concept'");
  expect([...lengths.values()].sort((a, b) => a - b)[0]).toBe(1 + 4);
});

test("varints decode as SQLite writes them: one byte, two bytes, and the ninth byte whole", () => {
  expect(varints(new Uint8Array([2, 4]))).toEqual([2, 4]);
  expect(varints(new Uint8Array([0x81, 0x55]))).toEqual([213]);
  expect(varints(new Uint8Array([0x81, 0x80, 0x00, 7]))).toEqual([16384, 7]);
  expect(varints(new Uint8Array([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]))).toEqual([2 ** 64 - 255]);
  expect(varints(new Uint8Array([]))).toEqual([]);
});

test("a score is left as it is where there is nothing to renormalize", () => {
  expect(renormalized(0, 2, 10, 5, 50)).toBe(0);
  expect(renormalized(1.5, 0, 10, 5, 50)).toBe(1.5);
  // A longer average lifts a long page's score; a shorter one lowers it.
  expect(renormalized(1.5, 2, 100, 20, 80)).toBeGreaterThan(1.5);
  expect(renormalized(1.5, 2, 100, 80, 20)).toBeLessThan(1.5);
});
