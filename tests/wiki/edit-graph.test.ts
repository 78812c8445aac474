// Page editing (revisions, re-derived links, re-indexing, reprocessing never overwrites) and the graph,
// with their bad inputs, on both surfaces over real HTTP.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { newAccountKey } from "../support/accounts";
import { expectJson, startTestServer, type TestServer } from "../support/server";
import { addText, newBrain, waitForSource } from "../support/sources";

let s: TestServer;
let brainId: string;
let sourceId: string;
beforeAll(async () => {
  s = await startTestServer();
  brainId = await newBrain(s, "Editing");
  ({ source: { id: sourceId } } = await addText(s, brainId, "Tidal mills", "Tidal mills used the tide to turn a wheel. The Eling mill still grinds flour."));
  await waitForSource(s, brainId, sourceId);
  for (const [title, content] of [
    ["Windmills", "Windmills turn sails in the wind."],
    ["Watermills", "Watermills turn a wheel in a stream."],
  ]) await waitForSource(s, brainId, (await addText(s, brainId, title!, content!)).source.id);
});
afterAll(() => s.close());

const put = (slug: string, json: unknown, key?: string, base = "/api/v1/brains") =>
  s.api(`${base}/${brainId}/pages/${slug}`, { method: "PUT", json, key });
const get = async (slug: string) => (await expectJson(await s.api(`/api/v1/brains/${brainId}/pages/${slug}`), 200)).page;

describe("editing a page", () => {
  test("saved, links re-derived, re-indexed at once, revisions kept, revert by PUT of an old revision", async () => {
    const before = await get("tidal-mills");
    expect(before).toMatchObject({ edited: false, revision: 1, sourceChanged: false });
    const markdown = "Tidal mills store sea water in a pond. Compare [[windmills|Windmills]] and [[watermills]]. Zymurgy of the estuary.";
    const { page } = await expectJson(await put("tidal-mills", { markdown, title: "Tidal mills (edited)", baseRevision: 1 }), 200);
    expect(page).toMatchObject({ markdown, title: "Tidal mills (edited)", edited: true, revision: 2, slug: "tidal-mills" });
    expect(page.links).toEqual(["windmills", "watermills"]);
    expect((await get("windmills")).backlinks).toContain("tidal-mills");
    // The full-text index has the new words now.
    const ctx = await expectJson(await s.api(`/api/v1/brains/${brainId}/context`, { method: "POST", json: { query: "zymurgy estuary" } }), 200);
    expect(ctx.pages.map((p: any) => p.slug)).toContain("tidal-mills");

    const { revisions } = await expectJson(await s.api(`/api/brains/${brainId}/pages/tidal-mills/revisions`), 200);
    expect(revisions.map((r: any) => [r.revision, r.author])).toEqual([[2, "owner"], [1, "source"]]);
    expect(revisions[1].markdown).toBe(before.markdown);
    expect(Object.keys(revisions[0]).sort()).toEqual(["author", "createdAt", "markdown", "revision", "title"]);

    // Revert: PUT the old revision back (a new revision, by the owner); links follow the markdown.
    const reverted = await expectJson(await put("tidal-mills", { markdown: revisions[1].markdown, title: revisions[1].title }, undefined, "/api/brains"), 200);
    expect(reverted.page).toMatchObject({ markdown: before.markdown, title: before.title, revision: 3, edited: true });
    expect((await get("windmills")).backlinks).not.toContain("tidal-mills");
  });

  test("a citation link opened in a browser: the page as HTML, its title one h1 even when the page opens with '# Title'", async () => {
    const brain = await newBrain(s, "Browser view");
    await waitForSource(s, brain, (await addText(s, brain, "Windmills", "# Windmills\n\nWindmills grind grain with wind power.\n\n## Sails\n\nFour sails.")).source.id);
    const res = await s.api(`/api/v1/brains/${brain}/pages/windmills`, { headers: { accept: "text/html" } });
    expect(res.headers.get("content-type")).toContain("text/html");
    const html = await res.text();
    expect(html.match(/<h1[^>]*>/g)).toHaveLength(1);
    expect(html).toContain("<h1>Windmills</h1>");
    expect(html).toContain("Windmills grind grain");
    expect(html).toMatch(/<h2[^>]*>Sails<\/h2>/);
  });

  test("saving what the page already says is a no-op: no revision, and a source's page stays unedited", async () => {
    const edited = await get("tidal-mills");
    const again = await expectJson(await put("tidal-mills", { markdown: edited.markdown, baseRevision: edited.revision }), 200);
    expect(again.page).toMatchObject({ revision: edited.revision, edited: true, updatedAt: edited.updatedAt });
    const untouched = await get("windmills");
    const same = await expectJson(await put("windmills", { markdown: untouched.markdown, title: untouched.title }), 200);
    expect(same.page).toMatchObject({ revision: untouched.revision, edited: false, updatedAt: untouched.updatedAt });
    const { revisions } = await expectJson(await s.api(`/api/v1/brains/${brainId}/pages/tidal-mills/revisions`), 200);
    expect(revisions[0].revision).toBe(edited.revision);
    expect(new Set(revisions.map((r: any) => r.revision)).size).toBe(revisions.length);
  });

  test("reprocessing the source never overwrites an edited page: it records that the source changed", async () => {
    const edited = await get("tidal-mills");
    await expectJson(await s.api(`/api/v1/brains/${brainId}/sources/${sourceId}/reprocess`, { method: "POST" }), 202);
    await waitForSource(s, brainId, sourceId);
    const after = await get("tidal-mills");
    expect(after).toMatchObject({ markdown: edited.markdown, revision: edited.revision, edited: true, sourceChanged: true });
    // The source itself is unchanged by any edit.
    const { source } = await expectJson(await s.api(`/api/v1/brains/${brainId}/sources/${sourceId}`), 200);
    expect(source.status).toBe("ready");
  });

  test("an edit racing a reprocess: the edit wins, nothing lost", async () => {
    const { source } = await addText(s, brainId, "Race mill", "The race mill had a long mill race. Its wheel was made of oak.");
    await waitForSource(s, brainId, source.id);
    const markdown = "Owner's text about the race mill.";
    const [edit] = await Promise.all([
      put("race-mill", { markdown }),
      s.api(`/api/v1/brains/${brainId}/sources/${source.id}/reprocess`, { method: "POST" }),
    ]);
    expect(edit.status).toBe(200);
    await waitForSource(s, brainId, source.id);
    const page = await get("race-mill");
    expect(page).toMatchObject({ markdown, edited: true });
    const rows = await s.ctx.database.client.execute({ sql: "SELECT count(*) AS n FROM pages WHERE brain_id = ? AND slug LIKE 'race-mill%'", args: [brainId] });
    expect(Number(rows.rows[0]!.n)).toBe(1);
  });

  test("bad input: 413 over the cap, 422 empty, 404 no page, 409 stale baseRevision, 403 reader of a public brain, 404 private", async () => {
    const big = await put("windmills", { markdown: "x".repeat(200_001) });
    expect((await expectJson(big, 413)).error).toMatchObject({ code: "payload_too_large", field: "markdown" });
    expect((await expectJson(await put("windmills", { markdown: "  \n " }), 422)).error).toMatchObject({ code: "invalid_request", field: "markdown" });
    expect((await expectJson(await put("windmills", {}), 422)).error.code).toBe("invalid_request");
    expect((await expectJson(await put("windmills", { markdown: "ok", title: "" }), 422)).error.field).toBe("title");
    expect((await expectJson(await put("no-such-page", { markdown: "text" }), 404)).error.code).toBe("not_found");
    expect((await expectJson(await put("windmills", { markdown: "text", baseRevision: 99 }), 409)).error.code).toBe("conflict");
    expect((await expectJson(await s.api(`/api/v1/brains/${brainId}/pages/nope/revisions`), 404)).error.code).toBe("not_found");
    const reader = await newAccountKey(s.ctx.db);
    expect((await expectJson(await put("windmills", { markdown: "mine" }, reader), 404)).error.code).toBe("not_found");
    await expectJson(await s.api(`/api/v1/brains/${brainId}`, { method: "PATCH", json: { visibility: "public" } }), 200);
    expect((await expectJson(await put("windmills", { markdown: "mine" }, reader), 403)).error.code).toBe("forbidden");
    expect((await get("windmills")).edited).toBe(false); // nothing changed by the refused edits
    await expectJson(await s.api(`/api/v1/brains/${brainId}/pages/windmills`, { key: reader }), 200); // readers still read
    await expectJson(await s.api(`/api/v1/brains/${brainId}`, { method: "PATCH", json: { visibility: "private" } }), 200);
  });
});

describe("the graph", () => {
  test("nodes with kind and degree, edges between existing pages, on both surfaces", async () => {
    await put("windmills", { markdown: "Windmills turn sails. See [[watermills]] and [[tidal-mills]] and [[nowhere]]." });
    for (const base of ["/api/v1/brains", "/api/brains"]) {
      const graph = await expectJson(await s.api(`${base}/${brainId}/graph`), 200);
      expect(Object.keys(graph).sort()).toEqual(["edges", "nodes", "truncated"]);
      expect(graph.truncated).toBe(false);
      const wind = graph.nodes.find((n: any) => n.slug === "windmills");
      expect(wind).toMatchObject({ title: "Windmills", kind: "source" });
      expect(wind.degree).toBeGreaterThanOrEqual(2);
      expect(graph.edges).toContainEqual({ from: "windmills", to: "watermills" });
      expect(graph.edges.some((e: any) => e.to === "nowhere")).toBe(false);
    }
  });

  test("limit truncates to the best-connected pages; around/depth centres it; bad input is 404/422", async () => {
    const small = await expectJson(await s.api(`/api/v1/brains/${brainId}/graph?limit=1`), 200);
    expect(small.nodes).toHaveLength(1);
    expect(small.truncated).toBe(true);
    const around = await expectJson(await s.api(`/api/v1/brains/${brainId}/graph?around=watermills&depth=1`), 200);
    expect(around.nodes.map((n: any) => n.slug).sort()).toEqual(["watermills", "windmills"]);
    const deeper = await expectJson(await s.api(`/api/v1/brains/${brainId}/graph?around=watermills&depth=2`), 200);
    expect(deeper.nodes.map((n: any) => n.slug)).toContain("tidal-mills");
    expect((await expectJson(await s.api(`/api/v1/brains/${brainId}/graph?around=nope`), 404)).error.code).toBe("not_found");
    // Each bad number is named, with its range (a range error used to name "property").
    for (const [query, field] of [["depth=4&around=watermills", "depth"], ["depth=1.5", "depth"], ["depth=abc", "depth"], ["limit=5001", "limit"], ["limit=0", "limit"], ["limit=-3", "limit"]]) {
      const error = (await expectJson(await s.api(`/api/v1/brains/${brainId}/graph?${query}`), 422)).error;
      expect(error).toMatchObject({ code: "invalid_request", field });
      expect(error.message).toMatch(new RegExp(`^${field} must be a whole number from 1 to \\d+$`));
    }
    await expectJson(await s.api(`/api/v1/brains/${brainId}/graph`, { key: await newAccountKey(s.ctx.db) }), 404);
  });
});
