// Inward title links (src/ingest/inward-links.ts): the full-text query first asks for a long title's longest
// words only; when that fills the candidate list, it asks for every word, so a page naming the title is found
// however many pages share those longest words.
import { afterAll, expect, test } from "bun:test";
import { findInwardLinks } from "../../src/links/inward-links";
import type { ReadRows } from "../../src/db/read-rows";
import { expectJson, startTestServer } from "../support/server";
import { addText, newBrain, waitForSource } from "../support/sources";

const s = await startTestServer();
afterAll(() => s.close());

const read: ReadRows = async (text, args) => (await s.ctx.database.client.execute({ sql: text, args })).rows as unknown as Record<string, unknown>[];

test("a page naming a long title is found behind sixty pages holding its three longest words", async () => {
  const brainId = await newBrain(s, "Inward links");
  // "association", "lighthouse", "northern": the title's longest words, in every decoy; "keepers" only in the page.
  const decoys = Array.from({ length: 60 }, (_, i) => ({
    title: `Coastal report ${i + 1}`,
    content: `The northern lighthouse at cape ${i + 1} joined a regional association of harbour masters in ${1900 + i}.`,
  }));
  const naming = { title: "Annual meeting", content: "The Northern Lighthouse Keepers Association met at Velsmouth in 1931." };
  const { results } = await expectJson(await s.api(`/api/v1/brains/${brainId}/sources/batch`, { method: "POST", json: { sources: decoys } }), 200);
  for (const r of results) expect((await waitForSource(s, brainId, r.source.id)).status).toBe("ready");
  const { source } = await addText(s, brainId, naming.title, naming.content);
  expect((await waitForSource(s, brainId, source.id)).status).toBe("ready");

  // The three longest words alone fill the candidate list (50), without the naming page (written after them).
  const byLongest = await read(
    `SELECT p.slug FROM pages_fts f CROSS JOIN pages p ON p.id = f.rowid WHERE pages_fts MATCH ? AND p.brain_id = ? AND p.kind = 'source' LIMIT 50`,
    ['body: ("association" AND "lighthouse" AND "northern")', brainId],
  );
  expect(byLongest).toHaveLength(50);
  expect(byLongest.map((r) => r.slug)).not.toContain("annual-meeting");

  const fresh = [{ slug: "nlka", title: "Northern Lighthouse Keepers Association" }];
  const links = await findInwardLinks(read, brainId, "src_new", fresh);
  const slugs = await Promise.all(links.map(async (l) => String((await read("SELECT slug FROM pages WHERE id = ?", [l.from]))[0]!.slug)));
  expect(slugs).toEqual(["annual-meeting"]);
  expect(links.every((l) => l.to === "nlka")).toBe(true);

  // A short title (three terms or fewer) is asked for whole, as before; a title nobody names finds nothing.
  const short = await findInwardLinks(read, brainId, "src_new", [{ slug: "velsmouth-town", title: "Velsmouth" }]);
  expect(short.length).toBe(1);
  expect(await findInwardLinks(read, brainId, "src_new", [{ slug: "x", title: "Southern Lighthouse Keepers Association" }])).toEqual([]);
});
