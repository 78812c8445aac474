// The website connector over real HTTP against a loopback site: crawl, sitemap, conditional re-sync,
// prune, robots.txt, and owner edits surviving a sync.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectJson, startTestServer, type TestServer } from "../support/server";
import { allProcessed, createConnector, newBrain, sourcesOf, syncAndWait } from "./helpers";
import { startSite, type Site } from "./site";

let s: TestServer;
let site: Site;
beforeAll(async () => {
  site = startSite();
  s = await startTestServer({ BRAINBOX_FETCH_ALLOW_HOSTS: "127.0.0.1", BRAINBOX_JOB_RETRY_BASE_MS: "50" });
});
afterAll(async () => {
  await s.close();
  site.stop();
});

const pageRequests = (from: number) => site.requests.slice(from).filter((r) => r.path.startsWith("/docs"));

describe("website connector", () => {
  test("crawls from a start URL, re-syncs with conditional GETs writing nothing, updates a changed page, prunes a vanished one", async () => {
    site.pages.set("/docs/", { title: "Handbook", body: "The handbook of the river survey team.", links: ["/docs/a", "/docs/b", "https://elsewhere.example/x", "/private/c"] });
    site.pages.set("/docs/a", { title: "Gauges", body: "Gauges are read every morning at the weir.", links: ["/docs/b"] });
    site.pages.set("/docs/b", { title: "Boats", body: "The survey boat is kept in the north shed.", links: ["/docs/"] });
    site.pages.set("/private/c", { title: "Private", body: "Not in scope." });
    const brainId = await newBrain(s);
    const c = await createConnector(s, brainId, {
      kind: "website",
      name: "Handbook",
      config: { startUrls: [`${site.url}/docs/`], include: ["/docs/*"], maxDepth: 3, headers: { Authorization: "Bearer site-token" } },
      schedule: "manual",
    });
    expect(c.secrets).toEqual({ headers: { Authorization: "set" } });
    expect(JSON.stringify(c)).not.toContain("site-token");

    const first = await syncAndWait(s, brainId, c.id);
    expect(first).toMatchObject({ status: "succeeded", counts: { added: 3, updated: 0, unchanged: 0, removed: 0, failed: 0 } });
    const sources = await allProcessed(s, brainId);
    expect(sources.map((x) => x.title).sort()).toEqual(["Boats", "Gauges", "Handbook"]);
    expect(sources.every((x) => x.type === "text" && x.url.startsWith(site.url))).toBe(true);
    // The secret header reached the site, on every page request.
    expect(pageRequests(0).every((r) => r.headers.get("authorization") === "Bearer site-token")).toBe(true);

    // Nothing changed: one conditional request per page, every one a 304, nothing written.
    const before = site.requests.length;
    const updatedAt = new Map(sources.map((x) => [x.id, x.updatedAt]));
    const second = await syncAndWait(s, brainId, c.id);
    expect(second).toMatchObject({ status: "succeeded", counts: { added: 0, updated: 0, unchanged: 3, removed: 0, failed: 0 } });
    const again = pageRequests(before);
    expect(again).toHaveLength(3);
    expect(again.every((r) => r.conditional && r.status === 304)).toBe(true);
    for (const x of await sourcesOf(s, brainId)) expect(x.updatedAt).toBe(updatedAt.get(x.id));

    // One page changed, one vanished (404 and unlinked).
    site.pages.set("/docs/a", { title: "Gauges", body: "Gauges are now read twice a day, at the weir and the bridge.", links: [] });
    site.pages.set("/docs/", { title: "Handbook", body: "The handbook of the river survey team.", links: ["/docs/a"] });
    site.pages.delete("/docs/b");
    const third = await syncAndWait(s, brainId, c.id);
    expect(third).toMatchObject({ status: "succeeded", counts: { added: 0, updated: 2, unchanged: 0, removed: 1, failed: 0 } });
    const after = await allProcessed(s, brainId);
    expect(after.map((x) => x.title).sort()).toEqual(["Gauges", "Handbook"]);
    const page = await expectJson(await s.api(`/api/v1/brains/${brainId}/sources/${after.find((x) => x.title === "Gauges")!.id}`), 200);
    expect(page.source.status).toBe("ready");
  });

  test("reads a sitemap; a page dropped from it is pruned, unless the connector keeps removed pages", async () => {
    for (let i = 1; i <= 4; i++) site.pages.set(`/map/${i}`, { title: `Station ${i}`, body: `Station ${i} records rainfall in millimetres.`, etag: i % 2 === 0 });
    site.sitemap = ["/map/1", "/map/2", "/map/3", "/map/4"];
    const brainId = await newBrain(s);
    const pruning = await createConnector(s, brainId, { kind: "website", name: "Map", config: { sitemap: `${site.url}/sitemap.xml`, maxDepth: 0 } });
    expect(await syncAndWait(s, brainId, pruning.id)).toMatchObject({ status: "succeeded", counts: { added: 4 } });
    await allProcessed(s, brainId);
    site.sitemap = ["/map/1", "/map/2", "/map/3"];
    // Pages without an ETag are compared by their body: unchanged, nothing written.
    expect(await syncAndWait(s, brainId, pruning.id)).toMatchObject({ status: "succeeded", counts: { added: 0, updated: 0, unchanged: 3, removed: 1 } });
    expect((await sourcesOf(s, brainId)).map((x) => x.title).sort()).toEqual(["Station 1", "Station 2", "Station 3"]);

    const keeper = await createConnector(s, brainId, { kind: "website", name: "Map kept", config: { sitemap: `${site.url}/sitemap.xml`, maxDepth: 0, prune: false } });
    expect(await syncAndWait(s, brainId, keeper.id)).toMatchObject({ counts: { added: 3 } });
    site.sitemap = ["/map/1"];
    expect(await syncAndWait(s, brainId, keeper.id)).toMatchObject({ status: "succeeded", counts: { removed: 0, unchanged: 1 } });
    site.sitemap = null;
  });

  test("an owner-edited page is not overwritten by a sync: it learns sourceChanged", async () => {
    site.pages.set("/edit/1", { title: "Weir", body: "The weir is three metres high." });
    const brainId = await newBrain(s);
    const c = await createConnector(s, brainId, { kind: "website", name: "Edit", config: { startUrls: [`${site.url}/edit/1`], maxDepth: 0 } });
    await syncAndWait(s, brainId, c.id);
    const [src] = await allProcessed(s, brainId);
    const listed = await expectJson(await s.api(`/api/v1/brains/${brainId}/pages?kind=source`), 200);
    const slug = listed.pages.find((p: any) => p.sourceId === src.id)?.slug;
    expect(slug).toBeTruthy();
    await expectJson(await s.api(`/api/v1/brains/${brainId}/pages/${slug}`, { method: "PUT", json: { markdown: "# Weir\n\nEdited by the owner." } }), 200);
    site.pages.set("/edit/1", { title: "Weir", body: "The weir was raised to four metres." });
    expect(await syncAndWait(s, brainId, c.id)).toMatchObject({ counts: { updated: 1 } });
    await allProcessed(s, brainId);
    const page = (await expectJson(await s.api(`/api/v1/brains/${brainId}/pages/${slug}`), 200)).page;
    expect(page.markdown).toContain("Edited by the owner.");
    expect(page.sourceChanged).toBe(true);
  });
});
