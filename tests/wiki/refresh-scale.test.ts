// What keeps ingestion flat as a brain grows, checked for correctness (speed is in scripts/bench-import.ts):
// concept refreshes written as one batch per chunk, related concepts read from the graph, migration 0014,
// the title index keyed by rare words, and write transactions of a few sources.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { migrate } from "../../src/db/client";
import { migrations } from "../../src/db/migrations";
import { readRowsOf } from "../../src/db/read-rows";
import { TitleIndex } from "../../src/links/title-index";
import { expectJson, startTestServer, tempDir, type TestServer } from "../support/server";
import { databaseWithSources } from "../support/migrations";
import { addText, newBrain, waitForSource } from "../support/sources";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

/** A new brain of these sources added one after another, each ready and the concept pages refreshed. */
async function settledBrain(name: string, sources: [title: string, text: string][]) {
  const brainId = await newBrain(s, name);
  for (const [title, text] of sources) {
    const { source } = await addText(s, brainId, title, text);
    expect((await waitForSource(s, brainId, source.id)).status).toBe("ready");
  }
  await settled(brainId);
  return brainId;
}

/** Sources are ready before their concept pages are refreshed (same job, next step): wait for that too. */
async function settled(brainId: string) {
  const c = s.ctx.database.client;
  const deadline = Date.now() + 20_000;
  const busy = async () =>
    Number((await c.execute({ sql: "SELECT count(*) AS n FROM concept_dirty WHERE brain_id = ?", args: [brainId] })).rows[0]!.n) +
    Number((await c.execute("SELECT count(*) AS n FROM jobs WHERE status IN ('queued', 'running')")).rows[0]!.n);
  while (Date.now() < deadline && (await busy()) > 0) await Bun.sleep(25);
  expect(await busy()).toBe(0);
}

const page = async (brainId: string, slug: string) => (await expectJson(await s.api(`/api/v1/brains/${brainId}/pages/${slug}`), 200)).page;

describe("concept refresh in chunks", () => {
  test("two concepts earning their pages in one refresh both link into the older page that names them", async () => {
    const brainId = await newBrain(s, "Surveys");
    const first = await addText(s, brainId, "Coastal survey notes", "Surveyor Ada Quill mapped the northern coast. The old lighthouse of Port Tamsin stood on the cliff.");
    expect((await waitForSource(s, brainId, first.source.id)).status).toBe("ready");
    // Named once each: no page yet, so no link.
    expect((await s.api(`/api/v1/brains/${brainId}/pages/ada-quill`)).status).toBe(404);
    const second = await addText(s, brainId, "Spring expedition", "In spring Ada Quill sailed again from Port Tamsin with two assistants.");
    expect((await waitForSource(s, brainId, second.source.id)).status).toBe("ready");
    await settled(brainId);
    // Both pages are created by the same refresh pass (one batch): each inward link must survive the other.
    const older = await page(brainId, "coastal-survey-notes");
    expect(older.markdown).toContain("[[ada-quill|Ada Quill]]");
    expect(older.markdown).toContain("[[port-tamsin|Port Tamsin]]");
    expect(older.links).toEqual(expect.arrayContaining(["ada-quill", "port-tamsin"]));
    const ada = await page(brainId, "ada-quill");
    expect(ada.kind).toBe("concept");
    expect(ada.backlinks).toEqual(expect.arrayContaining(["coastal-survey-notes", "spring-expedition"]));
  });

  test("related concepts come from the pages that link to both; a third source refreshes them", async () => {
    const brainId = await settledBrain("Related", [
      ["First voyage", "Captain Ilse Varga sailed the Marrow Strait in a small ketch."],
      ["Second voyage", "Ilse Varga crossed the Marrow Strait again the next summer."],
      ["Third voyage", "The Marrow Strait froze early, and Ilse Varga waited for the thaw."],
    ]);
    const varga = await page(brainId, "ilse-varga");
    expect(varga.markdown).toContain("## Related");
    expect(varga.links).toContain("marrow-strait");
    const strait = await page(brainId, "marrow-strait");
    expect(strait.links).toContain("ilse-varga");
  });

  test("a related concept shares two of the concept's source pages: one shared page relates nothing", async () => {
    const brainId = await settledBrain("Related twice", [
      ["Backups", "Backups of the primary database stay in Frankfurt for 35 days."],
      ["Failover runbook", "Page the on-call engineer through PagerDuty. The primary database runs in Frankfurt. Maria Okafor owns the platform."],
      ["Rotation", "Maria Okafor leads the rotation. PagerDuty pages the on-call engineer."],
    ]);
    const engineer = await page(brainId, "on-call-engineer");
    const related = engineer.markdown.split("## Related")[1] ?? "";
    // Named with it in both its sources; Frankfurt and the primary database only in one of them.
    expect(related).toContain("[[pagerduty|PagerDuty]]");
    expect(related).toContain("[[maria-okafor|Maria Okafor]]");
    expect(related).not.toContain("frankfurt");
    expect(related).not.toContain("primary-database");
  });

  test("related concepts of a brain of notes: a note links nothing, the concepts it names relate", async () => {
    const brainId = await newBrain(s, "Meeting notes");
    const notes = [
      ["Architecture review 3 March", "Sofia Lindqvist writes the migration plan for OpenSearch. Dev Raman reviews it."],
      ["Architecture review 17 March", "Sofia Lindqvist presented the OpenSearch migration plan. Dev Raman approved it."],
      ["Incident review 9 April", "Dev Raman added disk alerts after the outage in Frankfurt."],
    ];
    for (const [title, content] of notes) {
      const res = await s.api(`/api/v1/brains/${brainId}/sources`, { method: "POST", json: { title, content, mode: "note" } });
      const { source } = await expectJson(res, 201);
      expect((await waitForSource(s, brainId, source.id)).status).toBe("ready");
    }
    await settled(brainId);
    const sofia = await page(brainId, "sofia-lindqvist");
    expect((await page(brainId, "architecture-review-3-march")).links).toEqual([]); // verbatim
    const related = sofia.markdown.split("## Related")[1] ?? "";
    // Named with her in both notes that name her; Frankfurt only in a note that does not.
    expect(related).toContain("[[dev-raman|Dev Raman]]");
    expect(related).toContain("[[opensearch|OpenSearch]]");
    expect(related).not.toContain("frankfurt");
  });

  test("one batch of more sources than a write transaction holds: all ready, each once; a concept named only within the batch earns its page", async () => {
    const brainId = await newBrain(s, "Many");
    const sources = Array.from({ length: 40 }, (_, i) => ({
      title: `Harbour log ${i}`,
      content: `Harbourmaster Tove Lindqvist recorded ship ${i} arriving at Skarholm with timber and salt.`,
      externalId: `log-${i}`,
    }));
    const res = await s.api(`/api/v1/brains/${brainId}/sources/batch`, { method: "POST", json: { sources } });
    const body = await expectJson(res, 200);
    expect(body.results).toHaveLength(40);
    const c = s.ctx.database.client;
    const deadline = Date.now() + 30_000;
    const count = async (sql: string) => Number((await c.execute({ sql, args: [brainId] })).rows[0]!.n);
    while (Date.now() < deadline && (await count("SELECT count(*) AS n FROM sources WHERE brain_id = ? AND status = 'ready'")) < 40) await Bun.sleep(50);
    expect(await count("SELECT count(*) AS n FROM sources WHERE brain_id = ? AND status = 'ready'")).toBe(40);
    expect(await count("SELECT count(*) AS n FROM pages WHERE brain_id = ? AND kind = 'source'")).toBe(40);
    expect(await count("SELECT count(DISTINCT source_id) AS n FROM concept_mentions WHERE brain_id = ? AND concept = 'tove-lindqvist'")).toBe(40);
    await settled(brainId);
    const tove = await page(brainId, "tove-lindqvist");
    expect(tove.kind).toBe("concept");
    // Every source page links to her (the first one inward, once her page existed); Skarholm's page names her.
    expect(tove.backlinks.filter((b: string) => b.startsWith("harbour-log-"))).toHaveLength(40);
    expect((await page(brainId, "skarholm")).links).toContain("tove-lindqvist");
  });
});

describe("the title index", () => {
  test("finds a title by all its words when its key is its rarest word, not its longest", async () => {
    const brainId = await newBrain(s, "Titles");
    const c = s.ctx.database.client;
    // Many titles share the long word "observations"; the one we look for is keyed by a short, rare word.
    const rows = Array.from({ length: 30 }, (_, i) => `('${brainId}', NULL, 'concept', 'obs-${i}', 'Tidal observations ${i}', 'x')`);
    rows.push(`('${brainId}', NULL, 'concept', 'kelp-observations', 'Kelp observations', 'x')`);
    await c.execute(`INSERT INTO pages (brain_id, source_id, kind, slug, title, markdown) VALUES ${rows.join(", ")}`);
    await c.execute(`INSERT INTO sources (id, brain_id, type, title, status) VALUES ('src_titles_${brainId}', '${brainId}', 'text', 'T', 'ready')`);
    await c.execute(`UPDATE pages SET kind = 'source', source_id = 'src_titles_${brainId}' WHERE brain_id = '${brainId}'`);
    const index = new TitleIndex(readRowsOf(s.ctx.db));
    const found = await index.candidates(brainId, "src_none", ["Divers counted kelp observations along the reef, and tidal observations 7 too."]);
    expect(found.map((f) => f.slug).sort()).toEqual(["kelp-observations", "obs-7"]);
    expect(await index.candidates(brainId, "src_none", ["Nothing here mentions the ocean."])).toEqual([]);
  });

  test("candidatesSeen says how far it looked; candidatesAfter finds the titles written since, few or many", async () => {
    const brainId = await newBrain(s, "Late titles");
    const c = s.ctx.database.client;
    const source = `src_late_${brainId}`;
    await c.execute(`INSERT INTO sources (id, brain_id, type, title, status) VALUES ('${source}', '${brainId}', 'text', 'T', 'ready')`);
    const write = (titles: string[]) =>
      c.execute(`INSERT INTO pages (brain_id, source_id, kind, slug, title, markdown) VALUES ${titles.map((t) => `('${brainId}', '${source}', 'source', '${t.toLowerCase().replace(/ /g, "-")}', '${t}', 'x')`).join(", ")}`);
    await write(["Old Quay"]);
    const index = new TitleIndex(readRowsOf(s.ctx.db));
    const body = ["The old quay and the salt barns met the fish market and the net lofts."];
    const { pages, seen } = await index.candidatesSeen(brainId, "src_none", body);
    expect(pages.map((p) => p.slug)).toEqual(["old-quay"]);
    // A few titles written since: checked one by one; the one looked at before is not found again.
    await write(["Salt Barns", "Rope Walk"]);
    index.touch();
    expect((await index.candidatesAfter(brainId, "src_none", body, seen)).map((p) => p.slug)).toEqual(["salt-barns"]);
    // More than a look checks one by one (250 titles): found through the body's words.
    const many = Array.from({ length: 250 }, (_, i) => `Pier number ${i}`);
    await write([...many.slice(0, 120), "Fish Market", ...many.slice(120), "Net Lofts"]);
    index.touch();
    expect((await index.candidatesAfter(brainId, "src_none", body, seen)).map((p) => p.slug).sort()).toEqual(["fish-market", "net-lofts", "salt-barns"]);
    expect(await index.candidatesAfter(brainId, source, body, seen)).toEqual([]); // the source's own pages
  });
});

describe("migration 0014", () => {
  test("mention rows survive; the by-page index is gone; full text merges at 2 segments a level", async () => {
    const dir = tempDir();
    const db = await databaseWithSources("0014", dir, "brn", [["s1", "text", "T"]]);
    const c = db.client;
    await c.executeMultiple(`
      INSERT INTO concept_mentions (brain_id, concept, source_id, page_slug, surface, sentence) VALUES ('brn', 'ada-quill', 's1', 't', 'Ada Quill', 'Ada Quill mapped it.');
    `);
    expect((await c.execute("SELECT name FROM sqlite_master WHERE name = 'concept_mentions_page'")).rows).toHaveLength(1);
    expect(await migrate(c)).toEqual(migrations.filter((m) => m.tag >= "0014").map((m) => m.tag));
    expect((await c.execute("SELECT name FROM sqlite_master WHERE name = 'concept_mentions_page'")).rows).toHaveLength(0);
    expect((await c.execute("SELECT surface FROM concept_mentions WHERE concept = 'ada-quill'")).rows.map((r) => r.surface)).toEqual(["Ada Quill"]);
    expect((await c.execute("SELECT v FROM pages_fts_config WHERE k = 'automerge'")).rows.map((r) => Number(r.v))).toEqual([2]);
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });
});
