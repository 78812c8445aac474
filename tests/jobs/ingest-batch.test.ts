// Sources ingested in batches: one write per batch must keep slugs unique and links right.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectJson, startTestServer, type TestServer } from "../support/server";
import { newBrain, pagesOf, waitForSource } from "../support/sources";
import { writeManyStatements } from "../../src/jobs/ingest-source/write-pages";
import { runBatch } from "../../src/db/plain";

let s: TestServer;
const site = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch: (req) =>
    new URL(req.url).pathname === "/ok"
      ? new Response("<html><head><title>Pilot Station</title></head><body><article><p>The pilot station is open all night.</p></article></body></html>", { headers: { "content-type": "text/html" } })
      : new Response("gone", { status: 404 }),
});
beforeAll(async () => {
  s = await startTestServer({ BRAINBOX_JOB_RETRY_BASE_MS: "20", BRAINBOX_FETCH_ALLOW_HOSTS: `127.0.0.1:${site.port}` });
});
afterAll(() => {
  site.stop(true);
  return s.close();
});

const batch = async (brainId: string, sources: unknown[]) =>
  (await expectJson(await s.api(`/api/v1/brains/${brainId}/sources/batch`, { method: "POST", json: { sources } }), 200)).results as any[];
const settle = (brainId: string, results: any[]) => Promise.all(results.map((r) => waitForSource(s, brainId, r.source.id)));
/** Inward links are added just after a source is ready (while its job finishes): wait for them. */
async function pageOnceItHas(brainId: string, slug: string, text: string, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const page = (await pagesOf(s, brainId)).find((p) => p.slug === slug)!;
    if (page.markdown.includes(text) || Date.now() > deadline) return page;
    await Bun.sleep(25);
  }
}

describe("batched ingestion", () => {
  test("sources with the same title in one batch get distinct slugs", async () => {
    const brainId = await newBrain(s);
    const results = await batch(brainId, [1, 2, 3].map((i) => ({ title: "Harbour Rules", content: `Rule ${i}: keep the channel clear.` })));
    const ready = await settle(brainId, results);
    expect(ready.every((r) => r.status === "ready")).toBe(true);
    // Source pages only: "Rule", named by all three, earns a concept page as it would across batches.
    expect((await pagesOf(s, brainId)).filter((p) => p.source_id).map((p) => p.slug).sort()).toEqual(["harbour-rules", "harbour-rules-2", "harbour-rules-3"]);
    // A later source with that title takes the next free slug, found with one range read.
    const [later] = await batch(brainId, [{ title: "Harbour Rules", content: "Rule 4: no wake." }]);
    await settle(brainId, [later]);
    expect((await pagesOf(s, brainId)).map((p) => p.slug)).toContain("harbour-rules-4");
  });

  test("sources of one title posted one by one (batches in flight at once) each keep their page and a distinct slug", async () => {
    const brainId = await newBrain(s);
    const posted: any[] = [];
    for (let i = 0; i < 40; i++) {
      const content = `Paragraph ${i}. The Rhine flows past Basel, Strasbourg and Cologne to the North Sea. Boats carry coal, grain and steel along it; the delta at Rotterdam splits into the Waal and the Lek. `.repeat(3);
      posted.push((await expectJson(await s.api(`/api/v1/brains/${brainId}/sources`, { method: "POST", json: { title: "Rhine", content } }), 201)).source);
    }
    const ready = await Promise.all(posted.map((p: any) => waitForSource(s, brainId, p.id)));
    expect(ready.every((r) => r.status === "ready" && r.pageCount === 1)).toBe(true);
    const sourcePages = (await pagesOf(s, brainId)).filter((p) => p.source_id);
    // Every source has its own page (a slug planned by two batches at once used to lose one source's page).
    expect(new Set(sourcePages.map((p) => p.source_id)).size).toBe(40);
    expect(new Set(sourcePages.map((p) => p.slug)).size).toBe(40);
  });

  test("a page links to earlier pages whose titles it mentions, not to deleted ones, and earlier pages link back", async () => {
    const brainId = await newBrain(s);
    const first = await batch(brainId, [
      { title: "Tidal Locks", content: "Tidal locks hold boats level while the tide falls." },
      { title: "Mooring Buoys", content: "Mooring buoys are yellow." },
    ]);
    await settle(brainId, first);
    await expectJson(await s.api(`/api/v1/brains/${brainId}/sources/${first[1].source.id}`, { method: "DELETE" }), 204).catch(() => undefined);
    const second = await batch(brainId, [{ title: "Harbour Guide", content: "Boats wait at the tidal locks; the mooring buoys were removed." }]);
    await settle(brainId, second);
    const pages = await pagesOf(s, brainId);
    const guide = pages.find((p) => p.slug === "harbour-guide")!;
    expect(guide.markdown).toContain("Boats wait at the [[tidal-locks|tidal locks]]");
    expect(guide.markdown).not.toContain("[[mooring-buoys");
    // Inward: a later page titled as something the guide mentions is linked from the guide.
    const third = await batch(brainId, [{ title: "Waiting Boats", content: "Boats queue in the outer basin." }]);
    await settle(brainId, third);
    const guideAfter = (await pagesOf(s, brainId)).find((p) => p.slug === "harbour-guide")!;
    expect(guideAfter.markdown).not.toContain("[[waiting-boats"); // "waiting boats" is not a phrase of the guide
    const fourth = await batch(brainId, [{ title: "Boats Wait", content: "Boats wait for the tide." }]);
    await settle(brainId, fourth);
    // Linked where the guide names the title (a sentence's opening plural, "Boats", is no concept of its own).
    expect((await pageOnceItHas(brainId, "harbour-guide", "[[boats-wait")).markdown).toStartWith("[[boats-wait|Boats wait]] at the [[tidal-locks|tidal locks]]");
  });

  test("one source that cannot be processed fails alone; the rest of its batch is ready", async () => {
    const brainId = await newBrain(s);
    const results = await batch(brainId, [
      { title: "Fine", content: "Lighthouses warn ships." },
      { kind: "link", url: `http://127.0.0.1:${site.port}/gone` },
      { kind: "link", url: `http://127.0.0.1:${site.port}/ok` },
      { title: "Also fine", content: "Pilots guide ships in." },
    ]);
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    const settled = await settle(brainId, results);
    expect(settled.map((r) => r.status)).toEqual(["ready", "failed", "ready", "ready"]);
    expect(settled[1].error).toContain("404");
    expect((await pagesOf(s, brainId)).map((p) => p.title).sort()).toEqual(["Also fine", "Fine", "Pilot Station"]);
  });
});

describe("one write for several sources", () => {
  test("every source's pages go in one insert, each still guarded by its own revision: a stale source writes nothing, the others are whole", async () => {
    const brainId = await newBrain(s, "Many at once");
    const db = s.ctx.database;
    const ids = ["src_many_a", "src_many_b", "src_many_c"];
    for (const id of ids)
      await db.client.execute({ sql: "INSERT INTO sources (id, brain_id, type, title, status, content) VALUES (?, ?, 'text', 'T', 'processing', 'x')", args: [id, brainId] });
    const write = (id: string, n: number) => ({
      source: { id, brainId, revision: 1, type: "text" },
      written: {
        title: `Title ${id}`,
        content: "x",
        pages: Array.from({ length: n }, (_, k) => ({ slug: `${id}-page-${k}`, title: `${id} page ${k}`, markdown: `Text of ${id} page ${k}, linking [[${ids[0]}-page-0]].` })),
      },
    });
    // The middle source was changed since its job read it (revision 2): its write is stale.
    await db.client.execute({ sql: "UPDATE sources SET revision = 2 WHERE id = ?", args: [ids[1]!] });
    const { statements, readyAt } = writeManyStatements([write(ids[0]!, 2), write(ids[1]!, 1), write(ids[2]!, 3)]);
    expect(statements.filter((st) => st.sql.includes("INSERT INTO pages"))).toHaveLength(1);
    const results = await runBatch(db.db, statements);
    expect(readyAt.map((at) => results[at]!.rowsAffected)).toEqual([1, 0, 1]);
    const pages = (await db.client.execute({ sql: "SELECT source_id, slug, position FROM pages WHERE brain_id = ? ORDER BY id", args: [brainId] })).rows.map((r) => [r.source_id, r.slug, Number(r.position)]);
    expect(pages).toEqual([
      [ids[0], `${ids[0]}-page-0`, 0],
      [ids[0], `${ids[0]}-page-1`, 1],
      [ids[2], `${ids[2]}-page-0`, 0],
      [ids[2], `${ids[2]}-page-1`, 1],
      [ids[2], `${ids[2]}-page-2`, 2],
    ]);
    // Each written page is searchable and links as its text says; the stale source has no links either.
    const links = (await db.client.execute({ sql: "SELECT count(*) AS n FROM page_links WHERE brain_id = ? AND to_slug = ?", args: [brainId, `${ids[0]}-page-0`] })).rows[0]!.n;
    expect(Number(links)).toBe(5);
    const found = (await db.client.execute({ sql: "SELECT count(*) AS n FROM pages_fts WHERE pages_fts MATCH 'linking'" })).rows[0]!.n;
    expect(Number(found)).toBeGreaterThanOrEqual(5);
    // A slug taken meanwhile fails the whole write (the batch is then written source by source).
    await db.client.execute({ sql: "UPDATE sources SET revision = 1 WHERE id = ?", args: [ids[1]!] });
    const taken = write(ids[1]!, 1);
    taken.written.pages[0]!.slug = `${ids[0]}-page-1`; // the first source's
    const failed = await runBatch(db.db, writeManyStatements([taken, write(ids[2]!, 1)]).statements).then(
      () => null,
      (e: Error) => e,
    );
    expect(failed?.message).toMatch(/UNIQUE/i);
    expect(Number((await db.client.execute({ sql: "SELECT count(*) AS n FROM pages WHERE source_id = ?", args: [ids[1]!] })).rows[0]!.n)).toBe(0);
    expect(Number((await db.client.execute({ sql: "SELECT count(*) AS n FROM pages WHERE source_id = ?", args: [ids[2]!] })).rows[0]!.n)).toBe(3); // rolled back
  });

  test("a source's first write (page count 0) leaves out the statements that replace an earlier one; a rewrite replaces its pages and their edges", async () => {
    const brainId = await newBrain(s, "First writes");
    const db = s.ctx.database;
    const id = "src_first_write";
    await db.client.execute({ sql: "INSERT INTO sources (id, brain_id, type, title, status, content) VALUES (?, ?, 'text', 'T', 'processing', 'x')", args: [id, brainId] });
    const write = (pageCount: number, markdown: string) => ({
      source: { id, brainId, revision: 1, type: "text", pageCount },
      written: { title: "First write", content: "x", pages: [{ slug: "first-write", title: "First write", markdown }] },
    });
    const replacing = /^DELETE FROM (pages WHERE source_id|page_links|concept_mentions|concept_seen|concept_lone)|INSERT OR IGNORE INTO concept_dirty \(brain_id, concept\)\s+SELECT DISTINCT/;
    const first = writeManyStatements([write(0, "Links [[alpha]] and [[beta]].")]).statements;
    expect(first.filter((st) => replacing.test(st.sql))).toEqual([]);
    await runBatch(db.db, first);
    const edges = async () =>
      (await db.client.execute({ sql: "SELECT l.to_slug FROM page_links l CROSS JOIN pages p ON p.id = l.from_page_id WHERE p.source_id = ? ORDER BY 1", args: [id] })).rows.map((r) => r.to_slug);
    expect(await edges()).toEqual(["alpha", "beta"]);
    // Written again (a reprocess, or a job run again after a crash): the old row and its edges go first.
    const again = writeManyStatements([write(1, "Links [[beta]] only.")]).statements;
    expect(again.filter((st) => replacing.test(st.sql)).length).toBeGreaterThanOrEqual(4);
    await runBatch(db.db, again);
    expect(await edges()).toEqual(["beta"]);
    expect(Number((await db.client.execute({ sql: "SELECT count(*) AS n FROM pages WHERE source_id = ?", args: [id] })).rows[0]!.n)).toBe(1);
    // Written as new by mistake over pages already there: the insert fails on the slug, nothing is doubled.
    const twice = await runBatch(db.db, writeManyStatements([write(0, "Links [[gamma]].")]).statements).then(
      () => null,
      (e: Error) => e,
    );
    expect(twice?.message).toMatch(/UNIQUE/i);
    expect(await edges()).toEqual(["beta"]);
  });
});
