// Wiki pages (the targets of citation URLs) and the sanitizing of everything rendered from markdown.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { newAccountKey } from "../support/accounts";
import { insertPages } from "../support/pages";
import { expectJson, startTestServer, type TestServer } from "../support/server";
import { newBrain } from "../support/sources";

let s: TestServer;
let brainId: string;
let sourceId: string;
const EVIL = [
  "Rockets burn fuel and oxidizer in a combustion chamber.",
  "",
  '<script>alert("x")</script><img src=x onerror="alert(1)"><a href="javascript:alert(2)">click</a>',
  "",
  '[bad link](javascript:alert(3)) and [ok](https://example.org/rockets) and <b onclick="x()">bold</b>',
  "",
  "See [[orbits]] and [[nowhere]]. Questions to launch@example.org.",
].join("\n");

beforeAll(async () => {
  s = await startTestServer();
  brainId = await newBrain(s, "Space");
  ({ sourceId } = await insertPages(s.ctx.db, brainId, [
    { title: "Rockets", markdown: EVIL },
    { title: "Orbits", markdown: "An orbit is the curved path of an object around a star or planet." },
    ...Array.from({ length: 5 }, (_, i) => ({ title: `Moon ${i}`, markdown: `Moon number ${i}.` })),
  ]));
});
afterAll(() => s.close());

describe("wiki pages", () => {
  test("one page as JSON: markdown, sanitized html, links, source", async () => {
    const { page } = await expectJson(await s.api(`/api/v1/brains/${brainId}/pages/rockets`), 200);
    expect(Object.keys(page).sort()).toEqual(
      ["backlinks", "edited", "html", "kind", "links", "markdown", "revision", "slug", "sourceChanged", "sourceId", "title", "updatedAt"],
    );
    // `links` lists the pages that exist ([[nowhere]] is not one).
    expect(page).toMatchObject({ slug: "rockets", title: "Rockets", markdown: EVIL, sourceId, links: ["orbits"], edited: false, revision: 1 });
    expect(page.html).not.toMatch(/<script|onerror|onclick|javascript:/i);
    expect(page.html).toContain('href="https://example.org/rockets"');
    // An e-mail address (autolinked by GFM) stays a working mailto: link, not an anchor without an address.
    expect(page.html).toContain('<a href="mailto:launch@example.org" rel="noopener nofollow">launch@example.org</a>');
    expect(page.html).toContain(`<a href="/api/v1/brains/${brainId}/pages/orbits"`);
    expect(page.html).toContain("nowhere"); // a link to no page stays text
    expect(page.html).not.toContain("/pages/nowhere");
  });

  test("a browser gets a rendered HTML page; the unversioned path works too", async () => {
    const res = await s.api(`/api/brains/${brainId}/pages/orbits`, { headers: { accept: "text/html,application/xhtml+xml,*/*;q=0.8" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toStartWith("text/html");
    const html = await res.text();
    expect(html).toContain("<h1>Orbits</h1>");
    expect(html).toContain("curved path");
    const evil = await (await s.api(`/api/v1/brains/${brainId}/pages/rockets`, { headers: { accept: "text/html" } })).text();
    expect(evil).not.toMatch(/<script|onerror|javascript:/i);
    const json = await s.api(`/api/brains/${brainId}/pages/orbits`, { headers: { accept: "*/*" } });
    expect(json.headers.get("content-type")).toStartWith("application/json");
  });

  test("list, paginated by slug", async () => {
    const first = await expectJson(await s.api(`/api/v1/brains/${brainId}/pages?limit=3`), 200);
    expect(first.pages.map((p: any) => p.slug)).toEqual(["moon-0", "moon-1", "moon-2"]);
    expect(Object.keys(first.pages[0]).sort()).toEqual(["edited", "kind", "slug", "sourceId", "title", "updatedAt"]);
    const rest = await expectJson(await s.api(`/api/brains/${brainId}/pages?limit=10&cursor=${first.nextCursor}`), 200);
    expect(rest.pages.map((p: any) => p.slug)).toEqual(["moon-3", "moon-4", "orbits", "rockets"]);
    expect(rest.nextCursor).toBeNull();
    await expectJson(await s.api(`/api/v1/brains/${brainId}/pages?limit=0`), 422);
  });

  test("unknown page 404; another account's private brain 404", async () => {
    expect((await expectJson(await s.api(`/api/v1/brains/${brainId}/pages/nope`), 404)).error.code).toBe("not_found");
    const other = await newAccountKey(s.ctx.db);
    await expectJson(await s.api(`/api/v1/brains/${brainId}/pages/rockets`, { key: other }), 404);
    await expectJson(await s.api(`/api/brains/${brainId}/pages`, { key: other }), 404);
  });
});

test("answerHtml is sanitized too", async () => {
  const body = await expectJson(await s.api(`/api/brains/${brainId}/ask`, { method: "POST", json: { question: "What do rockets burn in a combustion chamber?" } }), 200);
  expect(body.thin).toBe(false);
  expect(body.answerHtml).not.toMatch(/<script|onerror|onclick|javascript:/i);
  expect(body.answerHtml).toContain("combustion chamber");
});
