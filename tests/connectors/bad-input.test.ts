// Hostile and broken origins: each ends in a clear run result (errors in plain words), never a stalled run
// or server, and never loses what the brain already had.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectJson, startTestServer, type TestServer } from "../support/server";
import { createConnector, newBrain, sourcesOf, syncAndWait } from "./helpers";
import { startSite, type Site } from "./site";

let s: TestServer;
let site: Site;
beforeAll(async () => {
  site = startSite();
  s = await startTestServer({ BRAINBOX_FETCH_ALLOW_HOSTS: "127.0.0.1", BRAINBOX_FETCH_TIMEOUT_MS: "1500", BRAINBOX_FETCH_MAX_BYTES: String(1024 * 1024) });
});
afterAll(async () => {
  await s.close();
  site.stop();
});

const website = (brainId: string, name: string, config: Record<string, unknown>) => createConnector(s, brainId, { kind: "website", name, config });

describe("website connector: bad input", () => {
  test("a redirect loop and a 50 MB page fail on their own; the other pages are added", async () => {
    site.pages.set("/bad/", { title: "Index", body: "Links to trouble.", links: ["/loop/0", "/huge", "/bad/ok"] });
    site.pages.set("/bad/ok", { title: "Fine page", body: "This page is fine and short." });
    const brainId = await newBrain(s);
    const c = await website(brainId, "Trouble", { startUrls: [`${site.url}/bad/`], sameSite: true });
    const run = await syncAndWait(s, brainId, c.id);
    expect(run).toMatchObject({ status: "succeeded", counts: { added: 2, failed: 2 } });
    const errors = run.errors.join("\n");
    expect(errors).toContain("/loop/0: it redirects in a loop or too many times");
    expect(errors).toContain("/huge: it is larger than the largest document allowed");
    expect((await sourcesOf(s, brainId)).map((x) => x.title).sort()).toEqual(["Fine page", "Index"]);
  });

  test("a host that hangs times out; the run goes on with the other pages and keeps the hung page's source", async () => {
    site.pages.set("/hang/", { title: "Hang index", body: "Two pages below.", links: ["/hang/stuck", "/hang/fine"] });
    site.pages.set("/hang/stuck", { title: "Stuck", body: "Answers the first time only." });
    site.pages.set("/hang/fine", { title: "Fine", body: "Always answers." });
    const brainId = await newBrain(s);
    const c = await website(brainId, "Hang", { startUrls: [`${site.url}/hang/`] });
    expect(await syncAndWait(s, brainId, c.id)).toMatchObject({ counts: { added: 3 } });
    site.hang.add("/hang/stuck");
    const run = await syncAndWait(s, brainId, c.id);
    site.hang.delete("/hang/stuck");
    expect(run).toMatchObject({ status: "succeeded", counts: { unchanged: 2, failed: 1, removed: 0 } });
    expect(run.errors[0]).toContain("/hang/stuck: the site did not answer in time");
    expect((await sourcesOf(s, brainId)).map((x) => x.title).sort()).toEqual(["Fine", "Hang index", "Stuck"]);
  });

  test("a sitemap index nesting 10,000 sitemaps is read within its bounds and says so", async () => {
    const brainId = await newBrain(s);
    const before = site.requests.length;
    const c = await website(brainId, "Nest", { sitemap: `${site.url}/index-0.xml`, maxDepth: 0 });
    const run = await syncAndWait(s, brainId, c.id);
    const sitemapRequests = site.requests.slice(before).filter((r) => r.path.startsWith("/index-")).length;
    expect(sitemapRequests).toBeLessThanOrEqual(50);
    expect(run.status).toBe("succeeded");
    expect(run.errors.join(" ")).toContain("were not read");
    expect(await sourcesOf(s, brainId)).toEqual([]);
  });

  test("robots.txt disallowing all: nothing fetched but robots.txt, nothing added", async () => {
    const other = startSite();
    try {
      other.robots = "User-agent: *\nDisallow: /\n";
      other.pages.set("/a", { title: "A", body: "Not to be read." });
      const brainId = await newBrain(s);
      const c = await website(brainId, "Robots", { startUrls: [`${other.url}/a`] });
      const run = await syncAndWait(s, brainId, c.id);
      expect(run).toMatchObject({ status: "succeeded", counts: { added: 0, failed: 0 } });
      expect(other.requests.map((r) => r.path)).toEqual(["/robots.txt"]);
      expect(await sourcesOf(s, brainId)).toEqual([]);
    } finally {
      other.stop();
    }
  });

  test("a link to a private address outside the allow-list is refused at fetch time, in plain words", async () => {
    site.pages.set("/priv/", { title: "Private links", body: "Links to a private address.", links: ["http://10.1.2.3/secret"] });
    const brainId = await newBrain(s);
    const c = await website(brainId, "Priv", { startUrls: [`${site.url}/priv/`], sameSite: false });
    const run = await syncAndWait(s, brainId, c.id);
    expect(run).toMatchObject({ counts: { added: 1, failed: 1 } });
    expect(run.errors[0]).toContain("BRAINBOX_FETCH_ALLOW_HOSTS");
  });

  test("a sitemap that is not a sitemap fails the run without pruning anything", async () => {
    site.pages.set("/notmap/1", { title: "Page", body: "A page that was listed once." });
    site.sitemap = ["/notmap/1"];
    const brainId = await newBrain(s);
    const c = await website(brainId, "Map", { sitemap: `${site.url}/sitemap.xml`, maxDepth: 0 });
    expect(await syncAndWait(s, brainId, c.id)).toMatchObject({ counts: { added: 1 } });
    await expectJson(await s.api(`/api/v1/brains/${brainId}/connectors/${c.id}`, { method: "PATCH", json: { config: { sitemap: `${site.url}/notmap/1`, maxDepth: 0 } } }), 200);
    const run = await syncAndWait(s, brainId, c.id);
    expect(run.status).toBe("failed");
    expect(run.errors.join(" ")).toContain("is not a sitemap");
    expect((await sourcesOf(s, brainId)).length).toBe(1);
    site.sitemap = null;
  });
});
