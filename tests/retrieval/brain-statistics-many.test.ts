// Per-brain BM25 statistics at any brain size and any number of brains (issue 58): pages written straight into
// the real database (the full-text triggers index them as ingest does), so a test can hold brains past the
// size where every match is ranked (PER_BRAIN_PAGES) and hundreds of brains on one server.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { answerService } from "../../src/modules/answer";
import { brainRanking } from "../../src/retrieval/brain-statistics";
import { PER_BRAIN_PAGES } from "../../src/retrieval/lexical";
import { bareBrainScores } from "../support/bare-bm25";
import { expectJson, startTestServer, type TestServer } from "../support/server";

let s: TestServer;
const brainIds: string[] = [];
const LARGE = PER_BRAIN_PAGES + 100;
// Brain one: "kestrel" in every page but one, "ferry" in that one page only.
const ISLAND = [
  ...Array.from({ length: LARGE - 1 }, (_, i) => ({ title: `Kestrel cove ${i}`, markdown: `Kestrel cove ${i} lies on kestrel island, by kestrel point${" and the bay".repeat(i % 7)}.` })),
  { title: "Crossing", markdown: "The ferry to the mainland sails at nine each morning." },
];

async function brainWithPages(name: string, pages: { title: string; markdown: string }[]): Promise<string> {
  const { brain } = await expectJson(await s.api("/api/v1/brains", { method: "POST", json: { name } }), 201);
  const source = `src_${brain.id}`;
  await s.ctx.db.run(sql`INSERT INTO sources (id, brain_id, type, title, status, content) VALUES (${source}, ${brain.id}, 'note', ${name}, 'ready', '')`);
  for (let at = 0; at < pages.length; at += 500)
    await s.ctx.db.batch(
      pages.slice(at, at + 500).map((p, i) => s.ctx.db.run(sql`INSERT INTO pages (brain_id, source_id, slug, title, markdown) VALUES (${brain.id}, ${source}, ${`p-${at + i}`}, ${p.title}, ${p.markdown})`)) as any,
    );
  return brain.id;
}

const titlesOf = async (brainId: string, query: string, limit = 3) =>
  (await expectJson(await s.api(`/api/v1/brains/${brainId}/context`, { method: "POST", json: { query, limit } }), 200)).pages.map((p: any) => p.title);

beforeAll(async () => {
  s = await startTestServer();
  brainIds.push(await brainWithPages("Island", ISLAND));
  // Brain two, as large: "ferry" in every page. On the server both words are in half the pages.
  brainIds.push(await brainWithPages("Timetables", Array.from({ length: LARGE }, (_, i) => ({ title: `Route ${i}`, markdown: `Route ${i} is a ferry line; the ferry calls at pier ${i}.` }))));
  // Many small brains, each with its own common word and its own rare one.
  for (let b = 0; b < 150; b++)
    brainIds.push(
      await brainWithPages(`Small ${b}`, [
        { title: `Harbour ${b}`, markdown: `The harbour of town ${b} is deep.` },
        { title: `Market ${b}`, markdown: `The market of town ${b} sells fish by the harbour.` },
        { title: `Chapel ${b}`, markdown: `The chapel of town ${b} stands by the harbour.` },
        { title: `Lighthouse ${b}`, markdown: `The lighthouse of town ${b} was lit in ${1800 + b}.` },
      ]),
    );
  // A small brain whose telling word ("ferry") is in half the server's pages, through the Timetables brain.
  brainIds.push(
    await brainWithPages("Quayside", [
      { title: "Morning crossing", markdown: "The ferry leaves from the old stone quay at the far end of the long harbour wall every morning." },
      { title: "Quay", markdown: "The quay." },
      { title: "Cafe", markdown: "The cafe sells pies." },
    ]),
  );
}, 120_000);
afterAll(() => s.close());

test("a large brain among large brains ranks with its own statistics", async () => {
  // The server's statistics weigh "kestrel" and "ferry" alike (each in half its pages); the Island brain's own
  // call "ferry" rare and "kestrel" common.
  expect((await titlesOf(brainIds[0]!, "kestrel ferry"))[0]).toBe("Crossing");
  // The other large brain: "ferry" is its common word, the pier number its rare one.
  expect((await titlesOf(brainIds[1]!, "ferry pier 1234"))[0]).toBe("Route 1234");
});

test("a large brain's scores are a bare BM25 over its own pages: its IDF and its average length", async () => {
  const ranked = (await brainRanking(s.ctx.db, "pages_fts", [brainIds[0]!], ["kestrel", "bay"], 100))!;
  const titles = new Map((await s.ctx.database.client.execute({ sql: "SELECT id, title FROM pages WHERE brain_id = ?", args: [brainIds[0]!] })).rows.map((r) => [Number(r.id), String(r.title)]));
  const expected = await bareBrainScores(ISLAND, ["kestrel", "bay"]);
  // A large brain scores each term's best pages in it, not every match.
  expect(ranked.length).toBeGreaterThanOrEqual(100);
  expect(ranked.length).toBeLessThan(expected.size);
  for (const hit of ranked) expect(hit.score).toBeCloseTo(expected.get(titles.get(hit.page_id)!)!, 9);
});

test("each of many small brains ranks with its own statistics", async () => {
  for (const b of [0, 74, 149]) {
    const id = brainIds[2 + b]!;
    // "harbour" is in three of the brain's four pages, "lit" in one: the lighthouse first, though the other
    // pages name the harbour.
    expect((await titlesOf(id, "harbour lit"))[0]).toBe(`Lighthouse ${b}`);
    // Only the brain's own pages come back.
    for (const title of await titlesOf(id, "harbour market chapel", 10)) expect(title).toMatch(new RegExp(` ${b}$`));
  }
});

test("a brain set ranks over the statistics of its brains together", async () => {
  // What a brain set's ask retrieves over (modules/brain-sets/ask.ts): two small brains at once.
  const retriever = answerService(s.ctx).retriever;
  const { pages } = await retriever.retrieve({ brains: [{ id: brainIds[2]! }, { id: brainIds[3]! }], query: "harbour lit", limit: 4 });
  expect(pages.slice(0, 2).map((p) => p.title).sort()).toEqual(["Lighthouse 0", "Lighthouse 1"]);
  // A large brain with a small one: the Island's common word stays common in the set.
  const mixed = await retriever.retrieve({ brains: [{ id: brainIds[0]! }, { id: brainIds[2]! }], query: "kestrel ferry", limit: 3 });
  expect(mixed.pages[0]!.title).toBe("Crossing");
});

test("a small brain matches and weighs the words by its own pages, whatever the server holds", async () => {
  const quayside = brainIds.at(-1)!;
  // On the server "ferry" is common enough to be left out of the match (lexical.ts selectiveTerms); in this
  // brain it is the word that tells the crossing from the quay.
  expect((await titlesOf(quayside, "quay ferry"))[0]).toBe("Morning crossing");
  // What the answer weighs the question's words by (answer/term-weights.ts): the brain's counts, not the server's.
  const { stats } = await answerService(s.ctx).retriever.retrieve({ brains: [{ id: quayside }], query: "quay ferry" });
  expect(stats.pageCount).toBe(3);
  expect(Object.fromEntries(stats.documentFrequency)).toEqual({ quay: 2, ferry: 1 });
});
