// Lone concepts (src/concepts/lone.ts): a concept one source names is kept in that source's lone row, not
// as mention rows; a merge puts it in concept_seen, where a second source finds it. Over real HTTP with the
// real job loop and libSQL file: the second source found at once (merged) and at the merge (unmerged, as a
// kill -9 between write and merge leaves it), reprocess and delete, and the refresh job that backs it up.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { expectJson, startTestServer, tempDir, type TestServer } from "../support/server";
import { addText, newBrain, waitForSource } from "../support/sources";
import { databaseWithSources } from "../support/migrations";
import { migrate } from "../../src/db/client";
import { MERGE_AT_SOURCES, mergeLoneConcepts, mergeLoneConceptsIfDue } from "../../src/concepts";
import { compactRow } from "../../src/concepts/lone";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

/** A brain's number and a source's lone row id, as concept_seen keys them (migration 0022). */
const BRAIN = "(SELECT number FROM brain_numbers WHERE brain_id = ?)";
const LONE = "(SELECT id FROM concept_lone WHERE source_id = ?)";

const query = async (sql: string, ...args: (string | number)[]) => (await s.ctx.database.client.execute({ sql, args })).rows as any[];
/** A lone row is merged when its id is at most its brain's `lone_merged_through` (migration 0023). */
const UNMERGED = "concept_lone l CROSS JOIN brain_numbers n ON n.brain_id = l.brain_id WHERE l.id > n.lone_merged_through";
const merged = async (sourceId: string) =>
  (await query("SELECT l.id <= n.lone_merged_through AS merged FROM concept_lone l CROSS JOIN brain_numbers n ON n.brain_id = l.brain_id WHERE l.source_id = ?", sourceId))[0]?.merged;
const unmergedRows = async (brainId: string) => (await query(`SELECT count(*) AS n FROM ${UNMERGED} AND l.brain_id = ?`, brainId))[0].n;
/** The merge undone from a source's row on (that row and every later one of its brain): what a kill -9 before the merge leaves. */
const unmergeFrom = (sourceId: string) =>
  query("UPDATE brain_numbers SET lone_merged_through = (SELECT id - 1 FROM concept_lone WHERE source_id = ?1) WHERE brain_id = (SELECT brain_id FROM concept_lone WHERE source_id = ?1)", sourceId);
const page = async (brainId: string, slug: string) => (await expectJson(await s.api(`/api/v1/brains/${brainId}/pages/${slug}`), 200)).page;
const pageStatus = async (brainId: string, slug: string) => (await s.api(`/api/v1/brains/${brainId}/pages/${slug}`)).status;

async function ready(brainId: string, title: string, content: string) {
  const { source } = await addText(s, brainId, title, content);
  expect((await waitForSource(s, brainId, source.id)).status).toBe("ready");
  return source.id;
}
/** Waits for every job of the server (the refresh job a write queues included) to finish. */
async function settled() {
  for (let i = 0; i < 400; i++) {
    if ((await query("SELECT count(*) AS n FROM jobs WHERE status IN ('queued', 'running')"))[0].n === 0) return;
    await Bun.sleep(25);
  }
  throw new Error("jobs never settled");
}

const KILN_A = "The Ostrava Kiln Works fired roof tiles for the valley. Its chimney stood forty metres tall.";
const KILN_B = "Potters from the Ostrava Kiln Works later founded a glaze school in the hills.";

describe("lone concepts", () => {
  test("one source: no mention rows, its lone row merged into concept_seen; a second source finds it, promotes it, and both pages link the new concept page", async () => {
    const brainId = await newBrain(s, "Kilns");
    const first = await ready(brainId, "Roof tiles", KILN_A);
    await settled();
    expect(await query("SELECT count(*) AS n FROM concept_mentions WHERE brain_id = ? AND concept = 'ostrava-kiln'", brainId)).toEqual([{ n: 0 }]);
    expect(await query(`SELECT l.source_id FROM concept_seen s CROSS JOIN concept_lone l ON l.id = s.lone WHERE s.brain = ${BRAIN} AND s.concept = 'ostrava-kiln'`, brainId)).toEqual([
      { source_id: first },
    ]);
    expect(await merged(first)).toBe(1);
    expect(await pageStatus(brainId, "ostrava-kiln")).toBe(404);

    const second = await ready(brainId, "Glaze school", KILN_B);
    await settled();
    // The second source linked the concept when it was prepared (it found the first in concept_seen).
    expect((await page(brainId, "glaze-school")).markdown).toContain("[[ostrava-kiln|");
    const concept = await page(brainId, "ostrava-kiln");
    expect(concept.kind).toBe("concept");
    expect(concept.markdown).toContain("fired roof tiles");
    expect(concept.markdown).toContain("glaze school");
    expect(concept.backlinks).toEqual(expect.arrayContaining(["roof-tiles", "glaze-school"]));
    const rows = await query("SELECT source_id FROM concept_mentions WHERE brain_id = ? AND concept = 'ostrava-kiln' ORDER BY source_id", brainId);
    expect(rows.map((r) => r.source_id).sort()).toEqual([first, second].sort());
    // The first source's mention, promoted from its compact lone row, is whole: page, surface, sentence.
    expect((await query("SELECT page_slug, surface, sentence FROM concept_mentions WHERE source_id = ? AND concept = 'ostrava-kiln'", first)).map((r) => ({ ...r }))).toEqual([
      // The whole name as written (its key drops "Works", as "the Zeiss works" is Zeiss).
      { page_slug: "roof-tiles", surface: "Ostrava Kiln Works", sentence: "The Ostrava Kiln Works fired roof tiles for the valley." },
    ]);
    expect(await query(`SELECT count(*) AS n FROM concept_seen WHERE brain = ${BRAIN} AND concept = 'ostrava-kiln'`, brainId)).toEqual([{ n: 0 }]);
  });

  test("a first source left unmerged (as a kill -9 leaves it): the merge after the second finds both and builds the page", async () => {
    const brainId = await newBrain(s, "Kilns unmerged");
    const first = await ready(brainId, "Roof tiles", KILN_A);
    await settled();
    // Undo the merge: the state of a source written just before the process died.
    await query(`DELETE FROM concept_seen WHERE brain = ${BRAIN}`, brainId);
    await unmergeFrom(first);

    const second = await ready(brainId, "Glaze school", KILN_B);
    await settled();
    const concept = await page(brainId, "ostrava-kiln");
    expect(concept.markdown).toContain("fired roof tiles");
    expect(concept.markdown).toContain("glaze school");
    // Neither source saw the other when it was prepared: the new page linked both inward.
    expect((await page(brainId, "roof-tiles")).markdown).toContain("[[ostrava-kiln|");
    expect((await page(brainId, "glaze-school")).markdown).toContain("[[ostrava-kiln|");
    const rows = await query("SELECT DISTINCT source_id FROM concept_mentions WHERE brain_id = ? AND concept = 'ostrava-kiln'", brainId);
    expect(rows.map((r) => r.source_id).sort()).toEqual([first, second].sort());
    expect(await unmergedRows(brainId)).toBe(0);
    // Nothing named once is left dirty or doubled.
    expect(await query("SELECT count(*) AS n FROM concept_dirty WHERE brain_id = ?", brainId)).toEqual([{ n: 0 }]);
    const twice = await query("SELECT count(*) AS n FROM (SELECT concept, source_id, sentence FROM concept_mentions WHERE brain_id = ? GROUP BY 1, 2, 3 HAVING count(*) > 1)", brainId);
    expect(twice).toEqual([{ n: 0 }]);
  });

  test("the refresh job queued with a write merges rows no batch merged", async () => {
    const brainId = await newBrain(s, "Kilns by the refresh job");
    const first = await ready(brainId, "Roof tiles", KILN_A);
    // (Brno, named once, keeps a lone row for the second source: the state below is built on it.)
    const second = await ready(brainId, "Tile trade", "Merchants in Brno sold tiles from the Ostrava Kiln Works across the border.");
    await settled();
    expect(await pageStatus(brainId, "ostrava-kiln")).toBe(200);
    // A write with lone concepts queued the brain's refresh job (it ran: nothing is left queued).
    expect((await query("SELECT count(*) AS n FROM jobs WHERE kind = 'wiki-refresh' AND subject_id = ?", brainId))[0].n).toBeGreaterThan(0);
    // The state a kill -9 leaves when neither batch merged: the concept in both lone rows, unmerged, no page.
    // Only a refresh job can repair it.
    const [mention] = await query("SELECT page_slug, surface, sentence FROM concept_mentions WHERE source_id = ? AND concept = 'ostrava-kiln'", second);
    await query(
      `UPDATE concept_lone SET sentences = json_insert(sentences, '$[#]', json_array(?, ?)),
         mentions = json_insert(mentions, '$[#]', json_array('ostrava-kiln', ?, json_array_length(sentences), 1)) WHERE source_id = ?`,
      mention.page_slug, mention.sentence, mention.surface, second,
    );
    await query("DELETE FROM concept_mentions WHERE brain_id = ? AND concept = 'ostrava-kiln'", brainId);
    await query(`DELETE FROM concept_seen WHERE brain = ${BRAIN}`, brainId);
    await unmergeFrom(first); // and the second, written after it
    await query("DELETE FROM pages WHERE brain_id = ? AND slug = 'ostrava-kiln'", brainId);
    await query("INSERT INTO jobs (kind, subject_id, payload, max_attempts, run_after) VALUES ('wiki-refresh', ?, '{}', 5, 0)", brainId);
    await settled();
    const concept = await page(brainId, "ostrava-kiln");
    expect(concept.markdown).toContain("fired roof tiles");
    expect(concept.markdown).toContain("Merchants in Brno sold tiles");
  });

  test("reprocess (new content under the same externalId) and delete take a source's lone concepts out of concept_seen", async () => {
    const brainId = await newBrain(s, "Kilns changing");
    const { source } = await addText(s, brainId, "Roof tiles", KILN_A, { externalId: "tiles" });
    const first = source.id;
    await waitForSource(s, brainId, first);
    await settled();
    const [{ id: firstRow }] = await query("SELECT id FROM concept_lone WHERE source_id = ?", first);
    const before = (await query("SELECT concept FROM concept_seen WHERE lone = ?", firstRow)).map((r) => r.concept);
    expect(before).toContain("ostrava-kiln");

    const updated = await addText(s, brainId, "Roof tiles", "The Brno tannery dried hides beside the river Svratka.", { externalId: "tiles" });
    expect(updated.source.id).toBe(first);
    await waitForSource(s, brainId, first);
    await settled();
    // The rewritten row has a new id; nothing is left under the old one.
    const [{ id: secondRow }] = await query("SELECT id FROM concept_lone WHERE source_id = ?", first);
    expect(secondRow).toBeGreaterThan(firstRow);
    expect(await query("SELECT count(*) AS n FROM concept_seen WHERE lone = ?", firstRow)).toEqual([{ n: 0 }]);
    const after = (await query("SELECT concept FROM concept_seen WHERE lone = ?", secondRow)).map((r) => r.concept);
    expect(after).not.toContain("ostrava-kiln");
    expect(after).toContain("svratka");
    expect(after.filter((c) => before.includes(c))).toEqual([]);
    expect(await merged(first)).toBe(1);

    expect((await s.api(`/api/v1/brains/${brainId}/sources/${first}`, { method: "DELETE" })).status).toBe(204);
    await settled();
    expect(await query("SELECT count(*) AS n FROM concept_seen WHERE lone = ?", secondRow)).toEqual([{ n: 0 }]);
    expect(await query("SELECT count(*) AS n FROM concept_lone WHERE source_id = ?", first)).toEqual([{ n: 0 }]);
  });

  test("a merge waits while a source of its brain waits to be ingested and fewer than MERGE_AT_SOURCES rows wait unmerged; another brain's queue holds nothing back", async () => {
    const brainId = await newBrain(s, "Kilns waiting");
    const other = await newBrain(s, "Kilns elsewhere");
    const first = await ready(brainId, "Roof tiles", KILN_A);
    await settled();
    await query(`DELETE FROM concept_seen WHERE brain = ${BRAIN}`, brainId);
    await unmergeFrom(first);
    // A source of another brain waiting to be ingested (its job due in an hour: the loop leaves it queued).
    await query("INSERT INTO sources (id, brain_id, type, title, status, content) VALUES ('src_elsewhere', ?, 'text', 'Elsewhere', 'pending', 'x')", other);
    await query("INSERT INTO jobs (kind, subject_id, payload, max_attempts, run_after) VALUES ('ingest-source', 'src_elsewhere', '{}', 4, ?)", Date.now() + 3_600_000);
    try {
      expect(MERGE_AT_SOURCES).toBeGreaterThan(1);
      expect(await mergeLoneConceptsIfDue(s.ctx.db, brainId, "ingest-source")).toBe(0); // the one source's concepts recur nowhere: none dirty
      expect(await merged(first)).toBe(1);
      expect((await query(`SELECT count(*) AS n FROM concept_seen WHERE lone = ${LONE}`, first))[0].n).toBeGreaterThan(0);
      // Now a source of this brain waits too: the merge waits for it.
      await query(`DELETE FROM concept_seen WHERE brain = ${BRAIN}`, brainId);
      await unmergeFrom(first);
      await query("INSERT INTO sources (id, brain_id, type, title, status, content) VALUES ('src_waiting', ?, 'text', 'Later', 'pending', 'x')", brainId);
      await query("INSERT INTO jobs (kind, subject_id, payload, max_attempts, run_after) VALUES ('ingest-source', 'src_waiting', '{}', 4, ?)", Date.now() + 3_600_000);
      expect(await mergeLoneConceptsIfDue(s.ctx.db, brainId, "ingest-source")).toBe(0);
      expect(await merged(first)).toBe(0);
      // A source of the brain left pending with no job (an upload whose bytes never came): nothing will come of it.
      await query("DELETE FROM jobs WHERE subject_id = 'src_waiting'");
      await mergeLoneConceptsIfDue(s.ctx.db, brainId, "ingest-source");
      expect(await merged(first)).toBe(1);
    } finally {
      await query("DELETE FROM jobs WHERE subject_id IN ('src_waiting', 'src_elsewhere')");
      await query("DELETE FROM sources WHERE id IN ('src_waiting', 'src_elsewhere')");
    }
  });

  test("the brain's refresh job merges only when due: not while a source of the brain waits to be ingested, then once none does", async () => {
    const brainId = await newBrain(s, "Kilns refreshed");
    const first = await ready(brainId, "Roof tiles", KILN_A);
    await settled();
    await unmergeFrom(first);
    await query("INSERT INTO sources (id, brain_id, type, title, status, content) VALUES ('src_later', ?, 'text', 'Later', 'pending', 'x')", brainId);
    await query("INSERT INTO jobs (kind, subject_id, payload, max_attempts, run_after) VALUES ('ingest-source', 'src_later', '{}', 4, ?)", Date.now() + 3_600_000);
    const refreshed = async () => {
      const [{ id }] = await query("INSERT INTO jobs (kind, subject_id, payload, max_attempts, run_after) VALUES ('wiki-refresh', ?, '{}', 5, ?) RETURNING id", brainId, Date.now());
      for (let i = 0; i < 400 && (await query("SELECT status FROM jobs WHERE id = ?", id))[0].status !== "done"; i++) await Bun.sleep(25);
      expect((await query("SELECT status FROM jobs WHERE id = ?", id))[0].status).toBe("done");
    };
    try {
      await refreshed();
      expect(await merged(first)).toBe(0);
    } finally {
      await query("DELETE FROM jobs WHERE subject_id = 'src_later'");
      await query("DELETE FROM sources WHERE id = 'src_later'");
    }
    await refreshed();
    expect(await merged(first)).toBe(1);
  });

  test("a merge takes the rows committed before it began; a row written meanwhile waits for the next merge", async () => {
    const brainId = await newBrain(s, "Kilns meanwhile");
    await query(
      `INSERT INTO sources (id, brain_id, type, title, status, content) VALUES ('src_m1', ?1, 'text', 'One', 'ready', 'x'), ('src_m2', ?1, 'text', 'Two', 'ready', 'x'),
        ('src_m3', ?1, 'text', 'Three', 'ready', 'x')`,
      brainId,
    );
    const lone = (source: string, concept: string) =>
      `INSERT INTO concept_lone (source_id, brain_id, mentions, sentences) VALUES ('${source}', '${brainId}', '[["${concept}",null,0,1]]', '[["p","${concept}."]]')`;
    await query(lone("src_m1", "brno"));
    await query(lone("src_m2", "brno"));
    // A source written while the merge runs (its write between the merge's transactions): the trigger writes
    // its lone row from inside the merge's first insert.
    await query(`CREATE TRIGGER meanwhile AFTER INSERT ON concept_seen WHEN NOT EXISTS (SELECT 1 FROM concept_lone WHERE source_id = 'src_m3') BEGIN ${lone("src_m3", "brno")}; END`);
    try {
      expect(await mergeLoneConcepts(s.ctx.db, brainId)).toBe(1); // brno, named by src_m1 and src_m2
    } finally {
      await query("DROP TRIGGER meanwhile");
    }
    expect([await merged("src_m1"), await merged("src_m2"), await merged("src_m3")]).toEqual([1, 1, 0]);
    expect((await query("SELECT source_id FROM concept_mentions WHERE brain_id = ? AND concept = 'brno' ORDER BY source_id", brainId)).map((r) => r.source_id)).toEqual(["src_m1", "src_m2"]);
    // The next merge takes it: the concept already has mention rows, so its mention joins them.
    expect(await mergeLoneConcepts(s.ctx.db, brainId)).toBe(0);
    expect(await merged("src_m3")).toBe(1);
    expect((await query("SELECT source_id FROM concept_mentions WHERE brain_id = ? AND concept = 'brno' ORDER BY source_id", brainId)).map((r) => r.source_id)).toEqual(["src_m1", "src_m2", "src_m3"]);
    await query("DELETE FROM sources WHERE brain_id = ?", brainId);
    await query("DELETE FROM concept_dirty WHERE brain_id = ?", brainId);
  });

  test("the merge waits for more rows as the brain grows (an eighth of its sources), then merges every unmerged row in one sorted round", async () => {
    const brainId = await newBrain(s, "Kilns at scale");
    // 2,600 sources with lone rows, written straight to the tables (ingesting them would take minutes): two
    // concepts each, one shared by every tenth source, one their own.
    const n = 2600;
    await query(
      `WITH RECURSIVE i(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM i WHERE k < ?)
       INSERT INTO sources (id, brain_id, type, title, status, content) SELECT 'src_scale_' || k, ?, 'text', 'Tile ' || k, 'ready', 'x' FROM i`,
      n - 1,
      brainId,
    );
    await query(
      `INSERT INTO concept_lone (source_id, brain_id, mentions, sentences)
       SELECT id, brain_id, json_array(json_array('kiln-' || (rowid % 10), 'kiln', 0, 1), json_array('glaze-' || id, 'glaze', 1, 1)),
              json_array(json_array('tile', 'A kiln.'), json_array('tile', 'A glaze.'))
       FROM sources WHERE brain_id = ?`,
      brainId,
    );
    // A source of the brain waits, its job queued.
    await query("INSERT INTO sources (id, brain_id, type, title, status, content) VALUES ('src_waiting', ?, 'text', 'Later', 'pending', 'x')", brainId);
    await query("INSERT INTO jobs (kind, subject_id, payload, max_attempts, run_after) VALUES ('ingest-source', 'src_waiting', '{}', 4, ?)", Date.now() + 3_600_000);
    try {
      // At 2,600 sources MERGE_AT_SOURCES rows are due; at 40,000 (an eighth: 5,000) they wait.
      expect(MERGE_AT_SOURCES).toBeLessThan(n);
      await query("UPDATE brains SET source_count = 40000 WHERE id = ?", brainId);
      expect(await mergeLoneConceptsIfDue(s.ctx.db, brainId, "ingest-source")).toBe(0);
      expect(await unmergedRows(brainId)).toBe(n);
      await query("UPDATE brains SET source_count = ? WHERE id = ?", n, brainId);
      // Due: the ten shared concepts recur (dirty); every source's own concept is in concept_seen.
      expect(await mergeLoneConceptsIfDue(s.ctx.db, brainId, "ingest-source")).toBe(10);
    } finally {
      await query("DELETE FROM jobs WHERE subject_id = 'src_waiting'");
    }
    expect(await unmergedRows(brainId)).toBe(0);
    expect(await query(`SELECT count(*) AS n FROM concept_seen WHERE brain = ${BRAIN} AND concept LIKE 'glaze-%'`, brainId)).toEqual([{ n }]);
    expect(await query("SELECT count(*) AS n FROM concept_dirty WHERE brain_id = ?", brainId)).toEqual([{ n: 10 }]);
    // Their lone mentions were promoted to mention rows: 260 sources name each shared concept.
    expect(await query("SELECT count(*) AS n FROM concept_mentions WHERE brain_id = ? AND concept = 'kiln-3'", brainId)).toEqual([{ n: 260 }]);
    await query("DELETE FROM sources WHERE brain_id = ?", brainId);
    await query("DELETE FROM concept_dirty WHERE brain_id = ?", brainId);
  });

  test("a merge that fails after the write leaves the sources ready (their jobs done once); the brain's refresh job finishes it", async () => {
    const brainId = await newBrain(s, "Kilns failing");
    // A real failure inside the merge's transaction, until the trigger goes.
    await query("CREATE TRIGGER fail_seen BEFORE INSERT ON concept_seen BEGIN SELECT RAISE(ABORT, 'disk on fire'); END");
    let first: string;
    try {
      first = await ready(brainId, "Roof tiles", KILN_A);
      const [job] = await query("SELECT status, attempts FROM jobs WHERE subject_id = ? AND kind = 'ingest-source'", first);
      expect(job).toEqual({ status: "done", attempts: 1 });
      expect(await merged(first)).toBe(0);
    } finally {
      await query("DROP TRIGGER fail_seen");
    }
    await settled();
    expect(await merged(first!)).toBe(1);
    expect((await query(`SELECT count(*) AS n FROM concept_seen WHERE lone = ${LONE}`, first!))[0].n).toBeGreaterThan(0);
  });
});

describe("the stored lone row", () => {
  test("keeps each sentence once, and a surface only where it is not the concept's own words", () => {
    const sentence = "Harbour pilots and tide tables kept the harbour open.";
    const row = compactRow([
      { c: "harbour-pilot", p: "harbour", s: "harbour pilot", t: sentence, w: 1 },
      { c: "tide-table", p: "harbour", s: "Tide Tables", t: sentence, w: 0.5 },
      { c: "tide-table", p: "tides", s: "tide table", t: sentence, w: 0.5 }, // same words on another page: its own entry
      { c: "x-ray", p: "harbour", s: "x-ray", t: sentence, w: 1 }, // a hyphen where the slug's words have a space
      { c: "x-ray", p: "harbour", s: "x ray s", t: sentence, w: 1 },
    ]);
    expect(JSON.parse(row.sentences)).toEqual([
      ["harbour", sentence],
      ["tides", sentence],
    ]);
    expect(JSON.parse(row.mentions)).toEqual([
      ["harbour-pilot", null, 0, 1],
      ["tide-table", "Tide Tables", 0, 0.5],
      ["tide-table", null, 1, 0.5],
      ["x-ray", "x-ray", 0, 1],
      ["x-ray", "x ray s", 0, 1],
    ]);
    expect(compactRow([])).toEqual({ mentions: "[]", sentences: "[]" });
  });

  test("0018 on a database made before it: rows in the old shape (a sentence per mention) are rewritten, nothing lost, and still merge and promote", async () => {
    const dir = tempDir();
    const db = await databaseWithSources("0018", dir, "b1", [
      ["s1", "text", "T"],
      ["s2", "text", "U"],
    ]);
    const c = db.client;
    await c.executeMultiple(`
      INSERT INTO concept_lone (source_id, brain_id, mentions, merged) VALUES
        ('s1', 'b1', '[{"c":"ostrava-kiln","p":"roof-tiles","s":"Ostrava Kiln","t":"The Ostrava Kiln fired tiles.","w":1},{"c":"roof-tile","p":"roof-tiles","s":"roof tiles","t":"The Ostrava Kiln fired tiles.","w":0.5}]', 1),
        ('s2', 'b1', '[{"c":"ostrava-kiln","p":"glaze","s":"Ostrava Kiln","t":"Potters left the Ostrava Kiln.","w":1}]', 0);
      INSERT INTO concept_seen (brain_id, concept, source_id) VALUES ('b1', 'ostrava-kiln', 's1'), ('b1', 'roof-tile', 's1');
    `);
    await migrate(c);
    const rows = (
      await c.execute(
        "SELECT source_id, mentions, sentences, l.id <= n.lone_merged_through AS merged FROM concept_lone l CROSS JOIN brain_numbers n ON n.brain_id = l.brain_id ORDER BY source_id",
      )
    ).rows;
    expect(rows.map((r) => [r.source_id, JSON.parse(String(r.mentions)), JSON.parse(String(r.sentences)), Number(r.merged)])).toEqual([
      ["s1", [["ostrava-kiln", "Ostrava Kiln", 0, 1], ["roof-tile", "roof tiles", 1, 0.5]], [["roof-tiles", "The Ostrava Kiln fired tiles."], ["roof-tiles", "The Ostrava Kiln fired tiles."]], 1],
      ["s2", [["ostrava-kiln", "Ostrava Kiln", 0, 1]], [["glaze", "Potters left the Ostrava Kiln."]], 0],
    ]);
    // s1 was merged before the migration (its concept_seen rows, converted by 0022); merging s2 now finds the
    // concept named twice and promotes both.
    const { mergeLoneConcepts } = await import("../../src/concepts");
    expect(await mergeLoneConcepts(db.db, "b1")).toBe(1);
    const mentions = (await c.execute("SELECT source_id, page_slug, surface, sentence, weight FROM concept_mentions WHERE concept = 'ostrava-kiln' ORDER BY source_id")).rows;
    expect(mentions.map((r) => ({ ...r }) as Record<string, unknown>)).toEqual([
      { source_id: "s1", page_slug: "roof-tiles", surface: "Ostrava Kiln", sentence: "The Ostrava Kiln fired tiles.", weight: 1 },
      { source_id: "s2", page_slug: "glaze", surface: "Ostrava Kiln", sentence: "Potters left the Ostrava Kiln.", weight: 1 },
    ]);
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test("0022 on a database made before it: concept_seen keyed by brain number and lone row id, nothing lost; new brains numbered, ids never reused", async () => {
    const dir = tempDir();
    const db = await databaseWithSources("0022", dir, "b1", [
      ["s1", "text", "T"],
      ["s2", "text", "U"],
      ["s3", "text", "V"],
    ]);
    const c = db.client;
    await c.executeMultiple(`
      INSERT INTO brains (id, account_id, name, slug) VALUES ('b0', 'acc', 'b0', 'b0');
      INSERT INTO concept_lone (source_id, brain_id, mentions, sentences, merged) VALUES
        ('s1', 'b1', '[["ostrava-kiln",null,0,1],["roof-tile",null,0,1]]', '[["roof-tiles","The Ostrava Kiln fired roof tiles."]]', 1),
        ('s2', 'b1', '[["glaze-school",null,0,1]]', '[["glaze","A glaze school."]]', 1),
        ('s3', 'b1', '[["brno",null,0,1]]', '[["brno","Brno."]]', 0);
      DELETE FROM concept_lone WHERE source_id = 's2';
      INSERT INTO concept_lone (source_id, brain_id, mentions, sentences, merged) VALUES ('s2', 'b1', '[["glaze-school",null,0,1]]', '[["glaze","A glaze school."]]', 1);
      INSERT INTO concept_seen (brain_id, concept, source_id) VALUES ('b1', 'ostrava-kiln', 's1'), ('b1', 'roof-tile', 's1'), ('b1', 'glaze-school', 's2');
    `);
    const rowids = (await c.execute("SELECT source_id, rowid AS id FROM concept_lone ORDER BY source_id")).rows.map((r) => [r.source_id, Number(r.id)]);
    await migrate(c);
    // Each row keeps its rowid as its id; b1, made first, is numbered before b0.
    expect((await c.execute("SELECT source_id, id FROM concept_lone ORDER BY source_id")).rows.map((r) => [r.source_id, Number(r.id)])).toEqual(rowids);
    const number = async (brain: string) => Number((await c.execute({ sql: "SELECT number FROM brain_numbers WHERE brain_id = ?", args: [brain] })).rows[0]?.number);
    const b1 = await number("b1");
    expect(await number("b0")).toBeGreaterThan(b1);
    const seen = await c.execute(`SELECT s.brain, s.concept, l.source_id FROM concept_seen s CROSS JOIN concept_lone l ON l.id = s.lone ORDER BY s.concept`);
    expect(seen.rows.map((r) => [Number(r.brain), r.concept, r.source_id])).toEqual([
      [b1, "glaze-school", "s2"],
      [b1, "ostrava-kiln", "s1"],
      [b1, "roof-tile", "s1"],
    ]);
    // A brain made after the migration gets the next number, never one of a deleted brain.
    const b0 = await number("b0");
    await c.execute("DELETE FROM brains WHERE id = 'b0'");
    await c.execute("INSERT INTO brains (id, account_id, name, slug) VALUES ('b2', 'acc', 'b2', 'b2')");
    expect(await number("b2")).toBe(b0 + 1);
    // A lone row written again takes a new id above every id given so far, even once the highest is gone.
    const top = Number((await c.execute("SELECT max(id) AS id FROM concept_lone")).rows[0]!.id);
    await c.execute("DELETE FROM concept_lone WHERE id = " + top);
    await c.execute(`INSERT OR REPLACE INTO concept_lone (source_id, brain_id, mentions, sentences) VALUES ('s1', 'b1', '[]', '[]')`);
    expect(Number((await c.execute("SELECT id FROM concept_lone WHERE source_id = 's1'")).rows[0]!.id)).toBe(top + 1);
    // Deleting a brain takes its concept_seen rows with it.
    await c.execute("DELETE FROM brains WHERE id = 'b1'");
    expect((await c.execute("SELECT count(*) AS n FROM concept_seen")).rows[0]!.n).toBe(0);
    expect((await c.execute("SELECT count(*) AS n FROM brain_numbers WHERE brain_id = 'b1'")).rows[0]!.n).toBe(0);
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test("0023 on a database made before it: each brain's merged rows become one number (the rows below its first unmerged one), and the merge after it takes only the rest", async () => {
    const dir = tempDir();
    const db = await databaseWithSources("0023", dir, "b1", [
      ["s1", "text", "T"],
      ["s2", "text", "U"],
      ["s3", "text", "V"],
      ["s4", "text", "W"],
    ]);
    const c = db.client;
    const brno = (sentence: string) => `'[["brno",null,0,1]]', '[["p","${sentence}"]]'`;
    await c.executeMultiple(`
      INSERT INTO brains (id, account_id, name, slug) VALUES ('b2', 'acc', 'b2', 'b2'), ('b3', 'acc', 'b3', 'b3');
      INSERT INTO sources (id, brain_id, type, title, status) VALUES ('t1', 'b2', 'text', 'X', 'ready');
      INSERT INTO concept_lone (source_id, brain_id, mentions, sentences, merged) VALUES ('s1', 'b1', ${brno("Brno one.")}, 1);
      INSERT INTO concept_lone (source_id, brain_id, mentions, sentences, merged) VALUES ('t1', 'b2', ${brno("Brno in b2.")}, 1);
      INSERT INTO concept_lone (source_id, brain_id, mentions, sentences, merged) VALUES ('s2', 'b1', '[["tile",null,0,1]]', '[["p","Tile."]]', 1);
      INSERT INTO concept_lone (source_id, brain_id, mentions, sentences, merged) VALUES ('s3', 'b1', ${brno("Brno three.")}, 0);
      INSERT INTO concept_lone (source_id, brain_id, mentions, sentences, merged) VALUES ('s4', 'b1', ${brno("Brno four.")}, 0);
    `);
    const id = async (source: string) => Number((await c.execute({ sql: "SELECT id FROM concept_lone WHERE source_id = ?", args: [source] })).rows[0]!.id);
    const through = async (brain: string) => Number((await c.execute({ sql: "SELECT lone_merged_through AS n FROM brain_numbers WHERE brain_id = ?", args: [brain] })).rows[0]!.n);
    await migrate(c);
    expect(await through("b1")).toBe((await id("s3")) - 1);
    expect(await through("b2")).toBe(await id("t1"));
    expect(await through("b3")).toBe(0);
    expect((await c.execute("SELECT name FROM pragma_table_info('concept_lone')")).rows.map((r) => r.name)).not.toContain("merged");
    // The merge reads s3 and s4 only: Brno is named twice there (s1's row, merged before, is not read again).
    const { mergeLoneConcepts } = await import("../../src/concepts");
    expect(await mergeLoneConcepts(db.db, "b1")).toBe(1);
    const promoted = (await c.execute("SELECT source_id FROM concept_mentions WHERE brain_id = 'b1' AND concept = 'brno' ORDER BY source_id")).rows;
    expect(promoted.map((r) => r.source_id)).toEqual(["s3", "s4"]);
    expect(await through("b1")).toBe(await id("s4"));
    // Nothing is left to merge: a second merge reads nothing and changes nothing.
    expect(await mergeLoneConcepts(db.db, "b1")).toBe(0);
    expect(await through("b1")).toBe(await id("s4"));
    expect(await through("b2")).toBe(await id("t1"));
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });
});

describe("promotion", () => {
  test("a third source naming a concept with mention rows adds its mention; nothing of the concept is left in concept_seen", async () => {
    const brainId = await newBrain(s, "Kilns thrice");
    await ready(brainId, "Roof tiles", KILN_A);
    await settled();
    await ready(brainId, "Glaze school", KILN_B);
    await settled();
    const third = await ready(brainId, "Kiln fire", "A fire closed the Ostrava Kiln Works for a winter.");
    await settled();
    expect(await query("SELECT count(*) AS n FROM concept_mentions WHERE source_id = ? AND concept = 'ostrava-kiln'", third)).toEqual([{ n: 1 }]);
    expect((await page(brainId, "ostrava-kiln")).markdown).toContain("A fire closed");
    expect(await query(`SELECT count(*) AS n FROM concept_seen WHERE brain = ${BRAIN} AND concept = 'ostrava-kiln'`, brainId)).toEqual([{ n: 0 }]);
  });
});
