// The full-text index reads a page's readable text (search_text), not its wiki syntax: migration 0013
// computes it in SQL for existing pages (same ids, same vectors, concept pages moved to their own index), the
// app computes it on every write, and link-only rewrites of a page leave the index alone. CJK text is
// indexed character by character and searched by character pairs.
import { expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { migrate } from "../../src/db/client";
import { migrations } from "../../src/db/migrations";
import { searchTextOf } from "../../src/retrieval/search-text";
import { ftsMatch, queryTerms } from "../../src/retrieval/terms";
import { tempDir } from "../support/server";
import { databaseWithSources } from "../support/migrations";

const LEAD = "The keepers rowed out and rescued eleven of the crew.";
const PAGE = [
  LEAD,
  "",
  "In 1881 the [[oriel|Oriel]] ran aground. The keepers rowed out and rescued eleven of the crew. See [[north-light]].",
  "",
  "Source: <https://example.org/oriel>",
  "",
  "Related: [[lighthouses]], [[storms-of-1881]]",
].join("\n");
const READABLE = "In 1881 the Oriel ran aground. The keepers rowed out and rescued eleven of the crew. See north light.";

test("searchTextOf keeps the words: links read as their text, generated lines and the repeated lead go", () => {
  expect(searchTextOf(PAGE)).toBe(READABLE);
  // A first paragraph said only once stays; a note without syntax is unchanged.
  expect(searchTextOf("Intro said once.\n\nBody text here.")).toBe("Intro said once.\n\nBody text here.");
  expect(searchTextOf("Plain note.")).toBe("Plain note.");
  // A `Related:` line that is not a link list is the author's prose.
  expect(searchTextOf("Related: work on tides.")).toBe("Related: work on tides.");
  expect(searchTextOf("Related: [[a]]")).toBe("");
  // The lead under the page's "# Title" line (where synthesis puts it) goes too.
  expect(searchTextOf(`# The Oriel\n\n${PAGE}`)).toBe(`# The Oriel\n\n${READABLE}`);
  // Hyphenated words are indexed as one word too, once each, after the text.
  expect(searchTextOf("Wi-Fi near the shop; ask by e-mail. The Wi-Fi is slow.")).toBe("Wi-Fi near the shop; ask by e-mail. The Wi-Fi is slow.\n\nwifi email");
});

test("CJK text is indexed character by character; a CJK question searches its character pairs", () => {
  expect(searchTextOf("天文台建于1962年。").split(/\s+/)).toEqual(["天", "文", "台", "建", "于", "1962", "年", "。"]);
  expect(queryTerms("主望远镜有多大？")).toEqual(["主 望", "望 远", "远 镜", "镜 有", "有 多", "多 大"]);
  expect(queryTerms("Oriel 年")).toEqual(["oriel", "年"]);
  expect(ftsMatch(queryTerms("望远镜"))).toBe('"望 远" OR "远 镜"');
});

test("a dotted number is one term, searched as the phrase of its parts; a sentence's full stop after a year is not a dot in it", () => {
  expect(queryTerms("What changed in 5.0 of 127.0.0.1, in 2016. Then v4.2?")).toEqual(["changed", "5.0", "127.0.0.1", "2016", "v4", "2"]);
  expect(ftsMatch(["5.0"])).toBe('"5.0"');
});

async function databaseBefore0013(dir: string) {
  const db = await databaseWithSources("0013", dir, "brn", [
    ["s1", "text", "Oriel"],
    ["s2", "note", "N"],
  ]);
  const c = db.client;
  await c.execute({
    sql: `INSERT INTO pages (id, brain_id, source_id, kind, slug, title, markdown) VALUES
      (7, 'brn', 's1', 'source', 'oriel-wreck', 'Oriel wreck', ?),
      (9, 'brn', 's2', 'note', 'my-note', 'My note', 'A verbatim note about zeppelins.'),
      (11, 'brn', NULL, 'concept', 'oriel', 'Oriel', '- In 1881 the Oriel ran aground ([[oriel-wreck|Oriel wreck]]).')`,
    args: [PAGE],
  });
  await c.execute("INSERT INTO page_vectors (page_id, brain_id, model, embedding) VALUES (7, 'brn', 'm', vector32('[1,0,0]')), (11, 'brn', 'm', vector32('[0,1,0]'))");
  return db;
}

const matches = async (c: any, index: string, query: string) =>
  (await c.execute({ sql: `SELECT rowid FROM ${index} WHERE ${index} MATCH ? ORDER BY rowid`, args: [query] })).rows.map((r: any) => Number(r.rowid));

test("migration 0013 indexes existing pages' readable text, concept pages apart, ids and vectors kept", async () => {
  const dir = tempDir();
  const db = await databaseBefore0013(dir);
  const c = db.client;
  expect(await matches(c, "pages_fts", "lighthouses")).toEqual([7]); // before: the Related line is indexed

  expect(await migrate(c)).toEqual(migrations.filter((m) => m.tag >= "0013").map((m) => m.tag));

  const rows: unknown[] = (await c.execute("SELECT id, kind, search_text FROM pages ORDER BY id")).rows.map((r) => ({ ...r }));
  expect(rows).toEqual([
    { id: 7, kind: "source", search_text: READABLE }, // the SQL computes what searchTextOf does
    { id: 9, kind: "note", search_text: "A verbatim note about zeppelins." },
    { id: 11, kind: "concept", search_text: "- In 1881 the Oriel ran aground (Oriel wreck)." },
  ]);
  expect(await matches(c, "pages_fts", "lighthouses OR storms OR example OR source")).toEqual([]);
  expect(await matches(c, "pages_fts", "aground OR zeppelins")).toEqual([7, 9]);
  expect(await matches(c, "concept_fts", "aground")).toEqual([11]);
  expect(await matches(c, "pages_fts", "oriel")).toEqual([7]); // the link text is indexed, the slug gone
  const vectors = await c.execute("SELECT page_id FROM page_vectors ORDER BY page_id");
  expect(vectors.rows.map((r) => Number(r.page_id))).toEqual([7, 11]);

  // Triggers after 0013: a write with search_text re-indexes; a link-only rewrite keeps the index as it is;
  // deleting removes the row from the right index; a page written without search_text indexes its markdown.
  await c.execute("UPDATE pages SET markdown = 'Keepers burn oil.', search_text = 'Keepers burn oil.' WHERE id = 7");
  expect(await matches(c, "pages_fts", "oil")).toEqual([7]);
  expect(await matches(c, "pages_fts", "aground")).toEqual([]);
  await c.execute("UPDATE pages SET markdown = 'Keepers burn [[oil]].' WHERE id = 7");
  expect(await matches(c, "pages_fts", "oil")).toEqual([7]);
  await c.execute("DELETE FROM pages WHERE id IN (7, 11)");
  expect(await matches(c, "pages_fts", "oil OR keepers")).toEqual([]);
  expect(await matches(c, "concept_fts", "aground OR oriel")).toEqual([]);
  await c.execute("INSERT INTO pages (id, brain_id, source_id, kind, slug, title, markdown) VALUES (12, 'brn', 's2', 'note', 'n2', 'N2', 'Tides and [[moons]].')");
  expect(await matches(c, "pages_fts", "moons")).toEqual([12]);
  // FTS5's own structural check passes on both indexes.
  await c.execute("INSERT INTO pages_fts(pages_fts) VALUES ('integrity-check')");
  await c.execute("INSERT INTO concept_fts(concept_fts) VALUES ('integrity-check')");
  db.close();
  rmSync(dir, { recursive: true, force: true });
});
