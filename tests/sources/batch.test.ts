import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { newAccountKey } from "../support/accounts";
import { expectJson, startTestServer, type TestServer } from "../support/server";
import { newBrain, pagesOf, waitForSource } from "../support/sources";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ BRAINBOX_MAX_BODY_BYTES: String(4 * 1024 * 1024), BRAINBOX_FETCH_ALLOW_HOSTS: "127.0.0.1:9" });
});
afterAll(() => s.close());

const post = (path: string, json: unknown, key?: string) => s.api(path, { method: "POST", json, key });
const count = async (sql: string, ...args: string[]) => Number((await s.ctx.database.client.execute({ sql, args })).rows[0]!.n);
const sourcesIn = (brainId: string) => count("SELECT count(*) AS n FROM sources WHERE brain_id = ?", brainId);

describe("POST /api/v1/brains/{id}/sources/batch", () => {
  test("stores every item in one go, answers one result per item, and every source becomes ready", async () => {
    const brainId = await newBrain(s);
    const items = Array.from({ length: 40 }, (_, i) => ({ title: `Survey ${i}`, content: `Station ${i} measured ${i * 3} millimetres of rain.`, externalId: `survey-${i}` }));
    items.push({ title: "Runbook", content: "# Verbatim\n\nkept", mode: "note" } as any);
    const body = await expectJson(await post(`/api/v1/brains/${brainId}/sources/batch`, { sources: items }), 200);
    expect(body).toMatchObject({ created: 41, updated: 0, unchanged: 0, failed: 0 });
    expect(body.results).toHaveLength(41);
    body.results.forEach((r: any, i: number) => {
      expect(r).toMatchObject({ index: i, status: 201, created: true });
      expect(Object.keys(r.source).sort()).toEqual(["externalId", "id", "status", "title", "type"]);
    });
    expect(body.results[40].source.type).toBe("note");
    for (const r of body.results) await waitForSource(s, brainId, r.source.id);
    // One page per source (a concept the items share, named by many of them, earns a concept page besides).
    const pages = (await pagesOf(s, brainId)).filter((p) => p.source_id);
    expect(pages).toHaveLength(41);
    expect(pages.find((p) => p.title === "Runbook")!.markdown).toBe("# Verbatim\n\nkept");
    expect(await count("SELECT count(*) AS n FROM jobs WHERE kind = 'ingest-source' AND subject_id IN (SELECT id FROM sources WHERE brain_id = ?)", brainId)).toBe(41);
  });

  test("sources of one title get their slugs in the order they were sent (the same wiki on every run)", async () => {
    const brainId = await newBrain(s);
    const items = Array.from({ length: 8 }, (_, i) => ({ title: "Harbour log", content: `Entry ${i}: vessel ${i} moored at berth ${i}.`, externalId: `log-${i}` }));
    const body = await expectJson(await post(`/api/v1/brains/${brainId}/sources/batch`, { sources: items }), 200);
    for (const r of body.results) await waitForSource(s, brainId, r.source.id);
    const slugOf = new Map((await pagesOf(s, brainId)).filter((p) => p.source_id).map((p) => [p.source_id, p.slug]));
    expect(body.results.map((r: any) => slugOf.get(r.source.id))).toEqual(["harbour-log", ...Array.from({ length: 7 }, (_, i) => `harbour-log-${i + 2}`)]);
  });

  test("externalId per item: a repeat is unchanged (no new job), changed content updates and re-processes", async () => {
    const brainId = await newBrain(s);
    const url = `/api/v1/brains/${brainId}/sources/batch`;
    const first = await expectJson(await post(url, { sources: [{ title: "A", content: "alpha one", externalId: "a" }, { title: "B", content: "beta one", externalId: "b" }] }), 200);
    await Promise.all(first.results.map((r: any) => waitForSource(s, brainId, r.source.id)));
    const again = await expectJson(
      await post(url, { sources: [{ title: "A", content: "alpha one", externalId: "a" }, { title: "B", content: "beta two", externalId: "b" }, { title: "C", content: "gamma", externalId: "c" }] }),
      200,
    );
    expect(again).toMatchObject({ created: 1, updated: 1, unchanged: 1, failed: 0 });
    expect(again.results.map((r: any) => [r.status, r.created])).toEqual([[200, false], [200, false], [201, true]]);
    expect(again.results[0].source.id).toBe(first.results[0].source.id);
    expect(again.results[1].source.id).toBe(first.results[1].source.id);
    expect(await count("SELECT count(*) AS n FROM jobs WHERE subject_id = ?", first.results[0].source.id)).toBe(1);
    const b = await waitForSource(s, brainId, first.results[1].source.id, ["ready"]);
    expect(b.status).toBe("ready");
    await waitForSource(s, brainId, again.results[2].source.id);
    expect((await pagesOf(s, brainId)).find((p) => p.title === "B")!.markdown).toContain("beta two");
    expect(await sourcesIn(brainId)).toBe(3);
  });

  test("one invalid item gets its own error and the others are stored", async () => {
    const brainId = await newBrain(s);
    await expectJson(await post(`/api/v1/brains/${brainId}/sources`, { kind: "link", url: "http://127.0.0.1:9/x", externalId: "taken" }), 201);
    const body = await expectJson(
      await post(`/api/v1/brains/${brainId}/sources/batch`, {
        sources: [
          { title: "Good one", content: "fine" },
          { title: "No content" },
          { title: 42, content: "title is not a string" },
          "not an object",
          { kind: "link", url: "ftp://example.com/file" },
          { title: "Other type", content: "text", externalId: "taken" },
          { title: "Twin", content: "one", externalId: "twin" },
          { title: "Twin", content: "two", externalId: "twin" },
          { title: "Good two", content: "fine too" },
        ],
      }),
      200,
    );
    expect(body).toMatchObject({ created: 3, failed: 5 });
    const by = (i: number) => body.results[i];
    expect(by(0).status).toBe(201);
    expect(by(1)).toMatchObject({ index: 1, status: 422, error: { code: "invalid_request", field: "content" } });
    expect(by(2)).toMatchObject({ status: 422, error: { code: "invalid_request", field: "title" } });
    expect(by(3)).toMatchObject({ status: 422, error: { code: "invalid_request" } });
    expect(by(4)).toMatchObject({ status: 422, error: { field: "url" } });
    // Seed rule 1, as for a single add: the existing source (a link) comes back unchanged, whatever the body.
    expect(by(5)).toMatchObject({ status: 200, created: false, source: { type: "link", externalId: "taken" } });
    expect(by(6).status).toBe(201);
    expect(by(7)).toMatchObject({ status: 422, error: { field: "externalId" } });
    expect(by(8).status).toBe(201);
    expect(await sourcesIn(brainId)).toBe(4); // the link added before + 3
  });

  test("a batch of 1,001 is refused with 422 and nothing is stored; an empty one too", async () => {
    const brainId = await newBrain(s);
    const items = Array.from({ length: 1001 }, (_, i) => ({ title: `T${i}`, content: "x" }));
    const res = await post(`/api/v1/brains/${brainId}/sources/batch`, { sources: items });
    const body = await expectJson(res, 422);
    expect(body.error.code).toBe("invalid_request");
    expect(body.error.message).toContain("1000");
    expect(await sourcesIn(brainId)).toBe(0);
    expect((await expectJson(await post(`/api/v1/brains/${brainId}/sources/batch`, { sources: [] }), 422)).error.code).toBe("invalid_request");
    expect((await expectJson(await post(`/api/v1/brains/${brainId}/sources/batch`, { items: [] }), 422)).error.code).toBe("invalid_request");
    expect(await sourcesIn(brainId)).toBe(0);
  });

  test("exactly 1,000 is accepted", { timeout: 60_000 }, async () => {
    const brainId = await newBrain(s);
    const items = Array.from({ length: 1000 }, (_, i) => ({ title: `Item ${i}`, content: `Body ${i}`, externalId: `i${i}` }));
    const body = await expectJson(await post(`/api/v1/brains/${brainId}/sources/batch`, { sources: items }), 200);
    expect(body.created).toBe(1000);
    expect(await sourcesIn(brainId)).toBe(1000);
  });

  test("another account's brain is not found and gets nothing", async () => {
    const brainId = await newBrain(s);
    const key = await newAccountKey(s.ctx.db);
    const res = await post(`/api/v1/brains/${brainId}/sources/batch`, { sources: [{ title: "x", content: "y" }] }, key);
    expect(res.status).toBe(404);
    expect(await sourcesIn(brainId)).toBe(0);
    expect((await s.api(`/api/v1/brains/${brainId}/sources/batch`, { method: "POST", json: { sources: [] }, key: "bb_wrong" })).status).toBe(401);
  });
});

describe("POST /api/brains/{id}/sources/batch (unversioned)", () => {
  test("takes the unversioned shapes and answers full source views", async () => {
    const brainId = await newBrain(s);
    const body = await expectJson(
      await post(`/api/brains/${brainId}/sources/batch`, {
        sources: [{ type: "note", title: "N", body: "verbatim" }, { type: "text", title: "T", content: "passage" }, { type: "video" }],
      }),
      200,
    );
    expect(body).toMatchObject({ created: 2, failed: 1 });
    expect(body.results[0].source).toMatchObject({ type: "note", title: "N", status: "pending", pageCount: 0 });
    expect(body.results[0].source.createdAt).toBeString();
    expect(body.results[2]).toMatchObject({ status: 422, error: { field: "type" } });
  });
});
