import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { newAccountKey } from "../support/accounts";
import { expectJson, startTestServer, type TestServer } from "../support/server";
import { addText, newBrain, pagesOf, waitForSource } from "../support/sources";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ BRAINBOX_JOB_RETRY_BASE_MS: "20" });
});
afterAll(() => s.close());

const post = (path: string, json: unknown) => s.api(path, { method: "POST", json });

describe("adding sources (v1)", () => {
  test("a text source is created pending, becomes ready, and its pages are indexed", async () => {
    const brainId = await newBrain(s);
    const res = await post(`/api/v1/brains/${brainId}/sources`, { title: "Solar Panels", content: "Solar panels convert sunlight into electricity using photovoltaic cells." });
    const body = await expectJson(res, 201);
    expect(body.created).toBe(true);
    expect(body.source).toMatchObject({ type: "text", title: "Solar Panels", status: "pending", externalId: null });
    expect(Object.keys(body.source).sort()).toEqual(["externalId", "id", "status", "title", "type"]);
    const ready = await waitForSource(s, brainId, body.source.id);
    expect(ready).toMatchObject({ status: "ready", pageCount: 1, error: null });
    const pages = await pagesOf(s, brainId);
    expect(pages).toHaveLength(1);
    expect(pages[0]!.slug).toBe("solar-panels");
    const hit = await s.ctx.database.client.execute({ sql: "SELECT rowid FROM pages_fts WHERE pages_fts MATCH 'photovoltaic'", args: [] });
    expect(hit.rows.map((r) => Number(r.rowid))).toContain(pages[0]!.id);
    const brain = await expectJson(await s.api(`/api/v1/brains/${brainId}`), 200);
    expect(brain.brain.sourceCount).toBe(1);
  });

  test("a note is stored verbatim as one page", async () => {
    const brainId = await newBrain(s);
    const content = "# Keep *exactly*\n\nLine one.\n\n```js\nconst x = 1;\n```\n";
    const body = await expectJson(await post(`/api/v1/brains/${brainId}/sources`, { title: "Runbook", content, mode: "note" }), 201);
    expect(body.source.type).toBe("note");
    await waitForSource(s, brainId, body.source.id);
    const pages = await pagesOf(s, brainId);
    expect(pages.map((p) => p.markdown)).toEqual([content]);
  });

  test("a source of code only, or of rules only, is ready with its page (it has no prose to find concepts in)", async () => {
    // Each failed with "undefined is not an object (evaluating 'sentence.trim')": the tagger's one empty sentence.
    const brainId = await newBrain(s);
    const code = "```\nsrc/main.ts    CLI\nsrc/server.ts  Elysia app\n```";
    for (const [title, content, mode] of [["Layout", code, undefined], ["Layout note", code, "note"], ["Rules", "---\n\n***", undefined]] as const) {
      const body = await expectJson(await post(`/api/v1/brains/${brainId}/sources`, { title, content, ...(mode ? { mode } : {}) }), 201);
      expect(await waitForSource(s, brainId, body.source.id)).toMatchObject({ status: "ready", error: null });
    }
    const pages = await pagesOf(s, brainId);
    expect(pages.map((p) => p.title).sort()).toEqual(["Layout", "Layout note", "Rules"]);
    expect(pages.find((p) => p.title === "Layout")!.markdown).toContain("src/server.ts  Elysia app");
  });

  test("externalId makes repeats idempotent, even concurrent ones; other brains may reuse it", async () => {
    const brainId = await newBrain(s);
    const json = { title: "Policy", content: "Refunds within 30 days.", externalId: "doc-1" };
    const results = await Promise.all(Array.from({ length: 10 }, () => post(`/api/v1/brains/${brainId}/sources`, json)));
    const bodies = await Promise.all(results.map((r) => r.json() as Promise<any>));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 200)).toHaveLength(9);
    expect(new Set(bodies.map((b) => b.source.id)).size).toBe(1);
    expect(bodies.filter((b) => b.created)).toHaveLength(1);
    const list = await expectJson(await s.api(`/api/v1/brains/${brainId}/sources`), 200);
    expect(list.sources).toHaveLength(1);
    await waitForSource(s, brainId, bodies[0].source.id);
    const jobs = await s.ctx.database.client.execute({ sql: "SELECT count(*) AS n FROM jobs WHERE subject_id = ?", args: [bodies[0].source.id] });
    expect(Number(jobs.rows[0]!.n)).toBe(1);

    const other = await newBrain(s);
    const elsewhere = await expectJson(await post(`/api/v1/brains/${other}/sources`, json), 201);
    expect(elsewhere.source.id).not.toBe(bodies[0].source.id);
  });

  test("re-adding an externalId with new content updates its pages", async () => {
    const brainId = await newBrain(s);
    const first = await addText(s, brainId, "Prices", "The basic plan costs 10 dollars.", { externalId: "prices" });
    await waitForSource(s, brainId, first.source.id);
    const again = await addText(s, brainId, "Prices", "The basic plan costs 12 dollars.", { externalId: "prices" });
    expect(again.created).toBe(false);
    expect(again.source.id).toBe(first.source.id);
    const ready = await waitForSource(s, brainId, first.source.id, ["ready"]);
    expect(ready.status).toBe("ready");
    const pages = await pagesOf(s, brainId);
    expect(pages).toHaveLength(1);
    expect(pages[0]!.markdown).toContain("12 dollars");
  });

  test("pages link to pages of the brain that they mention, both ways", async () => {
    const brainId = await newBrain(s);
    const a = await addText(s, brainId, "Heat Pumps", "Heat pumps move heat instead of burning fuel.");
    await waitForSource(s, brainId, a.source.id);
    const b = await addText(s, brainId, "Home Heating", "Modern home heating often uses heat pumps, see the heat pumps page.");
    await waitForSource(s, brainId, b.source.id);
    const pages = await pagesOf(s, brainId);
    const heating = pages.find((p) => p.slug === "home-heating")!;
    // Linked where it names the title, as written.
    expect(heating.markdown).toContain("Modern home heating often uses [[heat-pumps|heat pumps]]");
    const c = await addText(s, brainId, "Efficiency", "Home heating is the largest energy use in most houses.");
    await waitForSource(s, brainId, c.source.id);
    expect((await pagesOf(s, brainId)).find((p) => p.slug === "efficiency")!.markdown).toContain("[[home-heating|Home heating]] is the largest");
  });

  test("a long document is split into several pages with unique slugs", async () => {
    const brainId = await newBrain(s);
    const section = (n: number) => `## Chapter ${n}\n\n${"This chapter explains a detailed topic at length. ".repeat(60)}`;
    const content = Array.from({ length: 4 }, (_, i) => section(i + 1)).join("\n\n");
    const { source } = await addText(s, brainId, "Manual", content);
    const ready = await waitForSource(s, brainId, source.id);
    expect(ready.pageCount).toBeGreaterThan(1);
    const slugs = (await pagesOf(s, brainId)).map((p) => p.slug);
    expect(new Set(slugs).size).toBe(slugs.length);
  });
});

describe("unversioned sources", () => {
  test("type text / note(body) return the source itself", async () => {
    const brainId = await newBrain(s);
    const text = await expectJson(await post(`/api/brains/${brainId}/sources`, { type: "text", title: "T", content: "Tea is a drink." }), 201);
    expect(text).toMatchObject({ type: "text", title: "T", status: "pending", created: true });
    const note = await expectJson(await post(`/api/brains/${brainId}/sources`, { type: "note", title: "N", body: "verbatim *body*" }), 201);
    expect(note.type).toBe("note");
    await waitForSource(s, brainId, note.id);
    const list = await expectJson(await s.api(`/api/brains/${brainId}/sources`), 200);
    expect(list.sources.map((x: any) => x.type).sort()).toEqual(["note", "text"]);
    for (const src of list.sources) {
      expect(src).toHaveProperty("createdAt");
      expect(src).toHaveProperty("updatedAt");
      expect(src).toHaveProperty("pageCount");
      expect(src).toHaveProperty("error");
    }
  });
});

describe("delete and re-process", () => {
  test("deleting a source removes its pages; re-processing rebuilds them", async () => {
    const brainId = await newBrain(s);
    const { source } = await addText(s, brainId, "Temp", "Something temporary about kiwis.");
    await waitForSource(s, brainId, source.id);
    const again = await expectJson(await s.api(`/api/v1/brains/${brainId}/sources/${source.id}/reprocess`, { method: "POST" }), 202);
    expect(again.source.status).toBe("pending");
    await waitForSource(s, brainId, source.id, ["ready"]);
    expect(await pagesOf(s, brainId)).toHaveLength(1);
    expect((await s.api(`/api/brains/${brainId}/sources/${source.id}`, { method: "DELETE" })).status).toBe(204);
    expect(await pagesOf(s, brainId)).toHaveLength(0);
    await expectJson(await s.api(`/api/v1/brains/${brainId}/sources/${source.id}`), 404);
    const fts = await s.ctx.database.client.execute("SELECT count(*) AS n FROM pages_fts WHERE pages_fts MATCH 'kiwis'");
    expect(Number(fts.rows[0]!.n)).toBe(0);
  });
});

describe("bad input", () => {
  let brainId: string;
  beforeAll(async () => {
    brainId = await newBrain(s);
  });

  test.each([
    [{ kind: "video", url: "https://example.com" }, "kind"],
    [{ kind: "link" }, "url"],
    [{ kind: "link", url: "not a url" }, "url"],
    [{ kind: "link", url: "ftp://example.com/x" }, "url"],
    [{ kind: "link", url: "http://127.0.0.1:9/x" }, "url"],
    [{ kind: "link", url: "http://169.254.169.254/latest/meta-data" }, "url"],
    [{ kind: "link", url: "http://localhost/x" }, "url"],
    [{ kind: "link", url: "http://[::1]/x" }, "url"],
    [{ title: "No content" }, "content"],
    [{ content: "No title" }, "title"],
    [{ title: "Empty", content: "   " }, "content"],
    [{ title: "Note", mode: "note" }, "content"],
    [{ title: "x", content: "y", mode: "poem" }, "mode"],
    [{ title: "x", content: "y", sourceUrl: "javascript:alert(1)" }, "sourceUrl"],
    [{ title: "x", content: "y", externalId: "" }, "externalId"],
    [{ title: 5, content: "y" }, "title"],
    // The unversioned surface's field: a body written for it would have been stored as text, silently.
    [{ type: "note", title: "Shift note", content: "Press twice." }, "type"],
    [{ type: "link", url: "https://example.com/" }, "type"],
  ])("v1 %j → 422 naming %s", async (json, field) => {
    const before = (await expectJson(await s.api(`/api/v1/brains/${brainId}/sources`), 200)).sources.length;
    const body = await expectJson(await post(`/api/v1/brains/${brainId}/sources`, json), 422);
    expect(body.error).toMatchObject({ code: "invalid_request", field });
    if (field === "type") expect(body.error.message).toContain('kind "link"');
    expect((await expectJson(await s.api(`/api/v1/brains/${brainId}/sources`), 200)).sources).toHaveLength(before);
  });

  test.each([
    [{ type: "pdf" }, "type"],
    [{}, "type"],
    [{ type: "note", title: "N", content: "wrong field" }, "body"],
    [{ type: "link", url: "http://10.0.0.1/" }, "url"],
    // The v1 surface's fields, refused with a pointer instead of being ignored.
    [{ type: "text", title: "T", content: "c", mode: "note" }, "mode"],
    [{ type: "text", kind: "link", title: "T", content: "c" }, "kind"],
  ])("unversioned %j → 422 naming %s", async (json, field) => {
    const body = await expectJson(await post(`/api/brains/${brainId}/sources`, json), 422);
    expect(body.error).toMatchObject({ code: "invalid_request", field });
  });

  test("huge content → 413, and nothing is created", async () => {
    const res = await post(`/api/v1/brains/${brainId}/sources`, { title: "Big", content: "x".repeat(2 * 1024 * 1024) });
    expect((await expectJson(res, 413)).error.code).toBe("payload_too_large");
    const list = await expectJson(await s.api(`/api/v1/brains/${brainId}/sources`), 200);
    expect(list.sources.find((x: any) => x.title === "Big")).toBeUndefined();
  });

  test("another account cannot add to or list a private brain (404)", async () => {
    const other = await newAccountKey(s.ctx.db, "Intruder");
    const add = await s.api(`/api/v1/brains/${brainId}/sources`, { method: "POST", json: { title: "x", content: "y" }, key: other });
    expect((await expectJson(add, 404)).error.code).toBe("not_found");
    await expectJson(await s.api(`/api/brains/${brainId}/sources`, { key: other }), 404);
  });

  test("unknown brain and unknown source are 404", async () => {
    await expectJson(await post(`/api/v1/brains/brn_missing/sources`, { title: "x", content: "y" }), 404);
    await expectJson(await s.api(`/api/v1/brains/${brainId}/sources/src_missing`), 404);
    await expectJson(await s.api(`/api/v1/brains/${brainId}/sources/src_missing`, { method: "DELETE" }), 404);
  });
});
