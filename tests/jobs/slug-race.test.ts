// A slug chosen for a source and written a moment later: whatever the wiki makes in between must not fail the
// write. The wiki refresh made a concept page of a word earlier sources named while a source titled by that
// word was between its slug choice and its write; the write then failed on the unique (brain, slug) index and
// the job waited for a retry (eval-squad2: paragraphs titled "Rhine" and "Normans"). The first test drives the
// real ingest handler, wiki refresh and write in exactly that order; the second ingests two concurrent
// batches of same-titled sources over HTTP with the job loop and reads the jobs table.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { expectJson, startTestServer, type TestServer } from "../support/server";
import { newBrain, pagesOf, waitForSource } from "../support/sources";
import { waitFor } from "../support/wait";
import { ingestSourceHandler } from "../../src/jobs/ingest-source";
import { allocateSlugs, writePages } from "../../src/jobs/ingest-source/write-pages";
import { refreshAllDirtyConcepts } from "../../src/concepts";
import { claimDue } from "../../src/queue";

const RIVER = "The Rhine rises in the Alps and flows to the North Sea. Barges on the Rhine carry coal and grain.";
const BASEL = "Basel lies on the Rhine where the river turns north. The Rhine bridges of Basel are old.";
const COLOGNE = "Cologne grew on the Rhine as a Roman town. Ships on the Rhine stop at the Cologne quays.";

const revisionOf = async (s: TestServer, id: string) => Number((await s.ctx.db.all<{ revision: number }>(sql`SELECT revision FROM sources WHERE id = ${id}`))[0]!.revision);

describe("a slug chosen before the wiki made a concept page of it", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ BRAINBOX_JOBS: "false" });
  });
  afterAll(() => s.close());

  test("the source's write takes the slug over from the new concept page, in its own transaction", async () => {
    const db = s.ctx.db;
    const brainId = await newBrain(s, "River towns");
    const post = async (title: string, content: string) =>
      (await expectJson(await s.api(`/api/v1/brains/${brainId}/sources`, { method: "POST", json: { title, content } }), 201)).source;
    const basel = await post("Basel", BASEL);
    const cologne = await post("Cologne", COLOGNE);
    const river = await post("Rhine", RIVER);
    // The river's slug is chosen while no page holds it (as its job does, before writing).
    const [drafted] = await allocateSlugs(db, brainId, river.id, [{ title: "Rhine", markdown: RIVER }], new Set<string>(), false);
    expect(drafted!.slug).toBe("rhine");
    // Meanwhile the two towns are ingested and the wiki refresh gives "Rhine", which both name, a page.
    const ingest = ingestSourceHandler(s.ctx);
    try {
      const towns = await claimDue(db, "test", 60_000, ["ingest-source"], 2);
      expect(towns.map((j) => j.subjectId).sort()).toEqual([basel.id, cologne.id].sort());
      expect(await ingest.runBatch!(towns, new AbortController().signal, () => undefined)).toEqual([undefined, undefined]);
    } finally {
      ingest.close?.();
    }
    await refreshAllDirtyConcepts({ db, embedder: null }, brainId);
    const concept = await s.api(`/api/v1/brains/${brainId}/pages/rhine`).then((r) => r.json() as Promise<any>);
    expect(concept.page).toMatchObject({ kind: "concept", slug: "rhine" });

    // The write with the slug chosen before: stored (it used to throw the unique constraint).
    const stored = await writePages(db, { id: river.id, brainId, revision: await revisionOf(s, river.id), type: "text", pageCount: 0 }, { title: "Rhine", content: RIVER, pages: [drafted!] });
    expect(stored).toBe(true);
    const pages = await pagesOf(s, brainId);
    expect(pages.filter((p) => p.slug === "rhine")).toEqual([expect.objectContaining({ source_id: river.id, title: "Rhine" })]);
    expect(pages.filter((p) => p.source_id).map((p) => p.slug).sort()).toEqual(["basel", "cologne", "rhine"]);
    // The towns' links to the concept now lead to the river's page.
    const page = await s.api(`/api/v1/brains/${brainId}/pages/rhine`).then((r) => r.json() as Promise<any>);
    expect(page.page).toMatchObject({ kind: "source", sourceId: river.id });
    expect(page.page.backlinks).toEqual(expect.arrayContaining(["basel", "cologne"]));
  });

  test("an edited concept page is not taken: the write fails and changes nothing", async () => {
    const db = s.ctx.db;
    const brainId = await newBrain(s, "Edited river");
    const river = (await expectJson(await s.api(`/api/v1/brains/${brainId}/sources`, { method: "POST", json: { title: "Rhine", content: RIVER } }), 201)).source;
    const [drafted] = await allocateSlugs(db, brainId, river.id, [{ title: "Rhine", markdown: RIVER }], new Set<string>(), false);
    await db.run(sql`INSERT INTO pages (brain_id, source_id, kind, slug, title, markdown, search_text, edited) VALUES (${brainId}, NULL, 'concept', 'rhine', 'Rhine', 'My notes on the Rhine.', 'My notes on the Rhine.', 1)`);
    const write = writePages(db, { id: river.id, brainId, revision: await revisionOf(s, river.id), type: "text", pageCount: 0 }, { title: "Rhine", content: RIVER, pages: [drafted!] });
    await expect(write).rejects.toThrow(/UNIQUE/);
    const pages = await pagesOf(s, brainId);
    expect(pages.map((p) => [p.slug, p.markdown])).toEqual([["rhine", "My notes on the Rhine."]]);
  });
});

describe("concurrent ingests of sources whose titles give one slug", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ BRAINBOX_JOB_CONCURRENCY: "4", BRAINBOX_JOB_RETRY_BASE_MS: "20" });
  });
  afterAll(() => s.close());

  test("every source gets its own page and slug on the first attempt", async () => {
    const brainId = await newBrain(s, "Rivers");
    // Two batch requests at once: towns naming the Rhine, interleaved with sources titled by it.
    const sources = (k: number) =>
      Array.from({ length: 12 }, (_, i) =>
        i % 3 === 2 ? { title: "Rhine", content: `${RIVER} Part ${k}-${i}.` } : { title: `Town ${k}-${i}`, content: `${i % 2 ? BASEL : COLOGNE} Town ${k}-${i}.` },
      );
    const [first, second] = await Promise.all(
      [1, 2].map(async (k) => (await expectJson(await s.api(`/api/v1/brains/${brainId}/sources/batch`, { method: "POST", json: { sources: sources(k) } }), 200)).results as any[]),
    );
    const posted = [...first!, ...second!].map((r) => r.source.id as string);
    const ready = await Promise.all(posted.map((id) => waitForSource(s, brainId, id)));
    expect(ready.every((r) => r.status === "ready" && r.pageCount === 1)).toBe(true);
    const sourcePages = (await pagesOf(s, brainId)).filter((p) => p.source_id);
    expect(new Set(sourcePages.map((p) => p.source_id)).size).toBe(24);
    expect(new Set(sourcePages.map((p) => p.slug)).size).toBe(24);
    expect(sourcePages.filter((p) => p.title === "Rhine")).toHaveLength(8);
    // No ingest job failed or needed a second attempt.
    await waitFor(async () => (await s.ctx.db.all<{ n: number }>(sql`SELECT count(*) AS n FROM jobs WHERE kind = 'ingest-source' AND status != 'done'`))[0]!.n === 0);
    const attempts = await s.ctx.db.all<{ attempts: number; n: number }>(sql`SELECT attempts, count(*) AS n FROM jobs WHERE kind = 'ingest-source' GROUP BY attempts`);
    expect(attempts.map((a) => [Number(a.attempts), Number(a.n)])).toEqual([[1, 24]]);
  });
});
