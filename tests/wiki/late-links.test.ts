// Links a source's pages get after they were prepared, on the real database. Found by the crash test under
// load: a source re-run after a kill wrote its page without the link to a concept page made meanwhile, and
// nothing linked it later (one of 30 pages, about one run in two with two other runs beside it).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { extractConcepts } from "../../src/concepts/extract";
import { linkLateConcepts } from "../../src/concepts/late-links";
import { linksAddedStatements, runBatch } from "../../src/links/page-links";
import { NamedInBatch, resolveConcepts } from "../../src/concepts/resolve";
import { applyConcepts } from "../../src/jobs/ingest-source/concepts";
import { startTestServer, type TestServer } from "../support/server";
import { addTextsReady, newBrain, pagesOf } from "../support/sources";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

const rows = async (sql: string, ...args: (string | number)[]) => (await s.ctx.database.client.execute({ sql, args })).rows;
const edges = async (pageId: number) => (await rows("SELECT to_slug FROM page_links WHERE from_page_id = ? ORDER BY to_slug", pageId)).map((r) => String(r.to_slug));
const NO_FACTS = { aliases: [], pageSlugs: [], elsewhere: [] };

test("a concept a later source of the batch made linked is linked late when its page was made before the write", async () => {
  const brainId = await newBrain(s, "Surveys");
  const ids = await addTextsReady(s, brainId, { "Survey 4": "Surveyor Ada Quill mapped the coast in year 4." });
  const [page] = await pagesOf(s, brainId);
  expect(page!.markdown).not.toContain("[[ada-quill"); // named once: no page, no link

  // The source as its batch prepared it: alone, Ada Quill earns no page, so no link is placed ...
  const batch = new NamedInBatch();
  const pages = [{ slug: page!.slug, title: page!.title, markdown: page!.markdown }];
  const plan = applyConcepts({ extracted: extractConcepts(pages, "Survey 4"), facts: NO_FACTS, pages }, { id: ids["Survey 4"]!, brainId, type: "text" }, batch);
  expect(plan.pages[0]!.markdown).toBe(page!.markdown);
  // ... then the batch's next source names her too, which marks her linked in the first source as well.
  resolveConcepts(NO_FACTS, extractConcepts([{ slug: "survey-5", title: "Survey 5", markdown: "Ada Quill surveyed district 5." }], "Survey 5"), [], batch);
  expect(plan.concepts.find((c) => c.slug === "ada-quill")!.linked).toBe(true);

  // Her page was made by another batch's refresh before this write, so no inward link will come.
  await rows("INSERT INTO pages (brain_id, kind, slug, title, markdown) VALUES (?, 'concept', 'ada-quill', 'Ada Quill', 'Surveyor.')", brainId);
  const added = await linkLateConcepts(s.ctx.db, brainId, [{ sourceId: ids["Survey 4"]!, type: "text", pageSlugs: [page!.slug], concepts: plan.concepts }]);
  expect(added).toBe(1);
  const [after] = await pagesOf(s, brainId).then((all) => all.filter((p) => p.slug === page!.slug));
  expect(after!.markdown).toContain("Surveyor [[ada-quill|Ada Quill]] mapped");
  expect(await edges(after!.id)).toEqual(["ada-quill"]);
});

test("a link added to a page read before its source wrote it again changes nothing: text and edge go together", async () => {
  const brainId = await newBrain(s, "Harbours");
  await addTextsReady(s, brainId, { "Harbour log": "Pilot Ines Moreau guided the ferry into the harbour." });
  const [page] = await pagesOf(s, brainId);
  const read = page!.markdown;
  // Written again meanwhile (same id, as SQLite may give a page written again: the text differs).
  await rows("UPDATE pages SET markdown = ? WHERE id = ?", `${read}\n\nThe ferry left at dawn.`, page!.id);
  const stale = read.replace("Ines Moreau", "[[ines-moreau|Ines Moreau]]");
  const [update, edge] = await runBatch(s.ctx.db, linksAddedStatements(page!.id, brainId, stale, ["ines-moreau"], read));
  expect(update!.rowsAffected).toBe(0);
  expect(edge!.rowsAffected).toBe(0);
  expect(String((await rows("SELECT markdown FROM pages WHERE id = ?", page!.id))[0]!.markdown)).toContain("The ferry left at dawn.");
  expect(await edges(page!.id)).not.toContain("ines-moreau");

  // Read as it is now, the link and its edge are written together.
  const now = String((await rows("SELECT markdown FROM pages WHERE id = ?", page!.id))[0]!.markdown);
  const linked = now.replace("Ines Moreau", "[[ines-moreau|Ines Moreau]]");
  const [update2, edge2] = await runBatch(s.ctx.db, linksAddedStatements(page!.id, brainId, linked, ["ines-moreau"], now));
  expect(update2!.rowsAffected).toBe(1);
  expect(edge2!.rowsAffected).toBe(1);
  expect(await edges(page!.id)).toContain("ines-moreau");
});
