// The feed kind (RSS and Atom: each new entry a source of its article) and the links kind (the brain's
// link sources re-read with conditional GETs; a changed one processed again).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectJson, startTestServer, type TestServer } from "../support/server";
import { waitFor } from "../support/wait";
import { allProcessed, createConnector, newBrain, sourcesOf, syncAndWait } from "./helpers";
import { startSite, type Site } from "./site";

let s: TestServer;
let site: Site;
let feeds: Map<string, { type: string; body: string }>;
let feedServer: ReturnType<typeof Bun.serve>;
let feedUrl: string;
beforeAll(async () => {
  site = startSite();
  feeds = new Map();
  feedServer = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const f = feeds.get(new URL(req.url).pathname);
      return f ? new Response(f.body, { headers: { "content-type": f.type } }) : new Response("no", { status: 404 });
    },
  });
  feedUrl = `http://127.0.0.1:${feedServer.port}`;
  s = await startTestServer({ BRAINBOX_FETCH_ALLOW_HOSTS: "127.0.0.1" });
});
afterAll(async () => {
  await s.close();
  site.stop();
  feedServer.stop(true);
});

const rss = (items: { title: string; path: string; date: string }[]) =>
  `<?xml version="1.0"?><rss version="2.0"><channel><title>Release notes</title><link>${site.url}/</link>` +
  items.map((i) => `<item><title>${i.title}</title><link>${site.url}${i.path}</link><guid>${i.path}</guid><pubDate>${i.date}</pubDate></item>`).join("") +
  `</channel></rss>`;

const atom = (items: { title: string; path: string; date: string }[]) =>
  `<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom"><title>Notes</title><id>urn:notes</id><updated>2026-01-01T00:00:00Z</updated>` +
  items.map((i) => `<entry><title>${i.title}</title><id>urn:${i.path}</id><link href="${site.url}${i.path}"/><updated>${i.date}</updated></entry>`).join("") +
  `</feed>`;

describe("feed connector", () => {
  test("RSS: each entry becomes a source of its article; a re-sync adds only the new entry", async () => {
    site.pages.set("/rel/1", { title: "Release 1.0", body: "Version 1.0 adds tide tables." });
    site.pages.set("/rel/2", { title: "Release 1.1", body: "Version 1.1 fixes the tide table import." });
    feeds.set("/rss", { type: "application/rss+xml", body: rss([{ title: "Release 1.0", path: "/rel/1", date: "Mon, 01 Jun 2026 10:00:00 GMT" }, { title: "Release 1.1", path: "/rel/2", date: "Tue, 02 Jun 2026 10:00:00 GMT" }]) });
    const brainId = await newBrain(s);
    const c = await createConnector(s, brainId, { kind: "feed", name: "Releases", config: { url: `${feedUrl}/rss` } });
    expect(await syncAndWait(s, brainId, c.id)).toMatchObject({ status: "succeeded", counts: { added: 2 } });
    const first = await allProcessed(s, brainId);
    expect(first.map((x) => x.type)).toEqual(["link", "link"]);
    expect(first.map((x) => x.title).sort()).toEqual(["Release 1.0", "Release 1.1"]);

    site.pages.set("/rel/3", { title: "Release 1.2", body: "Version 1.2 reads river gauges." });
    feeds.set("/rss", { type: "application/rss+xml", body: rss([{ title: "Release 1.2", path: "/rel/3", date: "Wed, 03 Jun 2026 10:00:00 GMT" }, { title: "Release 1.1", path: "/rel/2", date: "Tue, 02 Jun 2026 10:00:00 GMT" }]) });
    const before = site.requests.length;
    const run = await syncAndWait(s, brainId, c.id);
    // Release 1.0 left the feed but stays: a feed shows only its latest entries (prune is off by default).
    expect(run).toMatchObject({ status: "succeeded", counts: { added: 1, unchanged: 1, removed: 0 } });
    await allProcessed(s, brainId);
    expect(site.requests.slice(before).map((r) => r.path)).toEqual(["/rel/3"]);
    expect((await sourcesOf(s, brainId)).length).toBe(3);
  });

  test("Atom entries are read the same way", async () => {
    site.pages.set("/atom/1", { title: "Note one", body: "Atom note about flood barriers." });
    feeds.set("/atom", { type: "application/atom+xml", body: atom([{ title: "Note one", path: "/atom/1", date: "2026-06-01T10:00:00Z" }]) });
    const brainId = await newBrain(s);
    const c = await createConnector(s, brainId, { kind: "feed", name: "Notes", config: { url: `${feedUrl}/atom` } });
    expect(await syncAndWait(s, brainId, c.id)).toMatchObject({ status: "succeeded", counts: { added: 1 } });
    const [src] = await allProcessed(s, brainId);
    expect(src.url).toBe(`${site.url}/atom/1`);
  });

  test("a feed that is not XML fails the run in plain words and adds nothing", async () => {
    feeds.set("/broken", { type: "text/html", body: "<html><body>This is a web page, not a feed {{{" });
    const brainId = await newBrain(s);
    const c = await createConnector(s, brainId, { kind: "feed", name: "Broken", config: { url: `${feedUrl}/broken` } });
    const run = await syncAndWait(s, brainId, c.id);
    expect(run.status).toBe("failed");
    expect(run.errors[0]).toContain("is not an RSS or Atom feed");
    expect(await sourcesOf(s, brainId)).toEqual([]);
  });
});

describe("links connector", () => {
  test("re-reads the brain's link sources with conditional GETs; only a changed one is processed again", async () => {
    site.pages.set("/l/1", { title: "Link one", body: "The first linked page about estuaries." });
    site.pages.set("/l/2", { title: "Link two", body: "The second linked page about deltas." });
    const brainId = await newBrain(s);
    for (const p of ["/l/1", "/l/2"]) await expectJson(await s.api(`/api/v1/brains/${brainId}/sources`, { method: "POST", json: { kind: "link", url: `${site.url}${p}` } }), 201);
    await allProcessed(s, brainId);
    const c = await createConnector(s, brainId, { kind: "links", name: "Refresh links", schedule: "every 1d" });
    // Scheduled: its first run starts by itself and records each link's validators.
    await waitFor(async () => (await expectJson(await s.api(`/api/v1/brains/${brainId}/connectors/${c.id}`), 200)).connector.lastRun?.status === "succeeded");
    const again = await expectJson(await s.api(`/api/v1/brains/${brainId}/connectors`, { method: "POST", json: { kind: "links", name: "Second" } }), 409);
    expect(again.error?.field ?? again.field).toBe("kind");

    const before = site.requests.length;
    expect(await syncAndWait(s, brainId, c.id)).toMatchObject({ counts: { unchanged: 2, updated: 0 } });
    expect(site.requests.slice(before).every((r) => r.conditional && r.status === 304)).toBe(true);

    site.pages.set("/l/2", { title: "Link two", body: "The second linked page, now about river deltas and their silt." });
    expect(await syncAndWait(s, brainId, c.id)).toMatchObject({ counts: { unchanged: 1, updated: 1 } });
    await waitFor(async () => (await sourcesOf(s, brainId)).every((x) => x.status === "ready"));
    const changed = (await sourcesOf(s, brainId)).find((x) => x.url.endsWith("/l/2"));
    const pages = await expectJson(await s.api(`/api/v1/brains/${brainId}/pages?kind=source`), 200);
    const slug = pages.pages.find((p: any) => p.sourceId === changed.id).slug;
    const page = (await expectJson(await s.api(`/api/v1/brains/${brainId}/pages/${slug}`), 200)).page;
    expect(page.markdown).toContain("silt");

    // A link whose page is gone is kept as it was, and the run says why.
    site.pages.delete("/l/1");
    const gone = await syncAndWait(s, brainId, c.id);
    expect(gone).toMatchObject({ counts: { failed: 1, unchanged: 1, removed: 0 } });
    expect(gone.errors[0]).toContain("answered HTTP 404; the source was kept as it was");
    expect((await sourcesOf(s, brainId)).length).toBe(2);
  });
});
