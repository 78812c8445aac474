// The admin page with pages whose slugs are Cyrillic, CJK and Arabic (Chromium against a real server): the
// wiki list opens each page, a [[slug]] link in a page opens its target, backlinks link back, and the graph
// view centred on a Unicode slug draws its neighbourhood; the hash routes hold the percent-encoded slug.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { hasChromium, launchBrowser, SKIP_MESSAGE, type Browser, type WatchedPage } from "../../support/browser";
import { expectJson, startTestServer, type TestServer } from "../../support/server";
import { addText, waitForSource } from "../../support/sources";
import { signedIn } from "../../web/workspace";

if (!hasChromium) console.warn(SKIP_MESSAGE);

const T = 60_000;
const CYRILLIC = "пётр-чайковский";
const CJK = "東京タワー";
const ARABIC = "القاهرة-الكبرى";

describe.skipIf(!hasChromium)("Unicode slugs in the admin page", () => {
  let server: TestServer;
  let browser: Browser;
  let w: WatchedPage;
  let brainId: string;

  beforeAll(async () => {
    server = await startTestServer();
    ({ brain: { id: brainId } } = await expectJson(await server.api("/api/v1/brains", { method: "POST", json: { name: "Мир" } }), 201));
    for (const [title, content, mode] of [
      ["Пётр Чайковский", "Пётр Чайковский родился в Воткинске.", "text"],
      ["東京タワー", "東京タワーは東京都港区にある電波塔である。", "text"],
      ["القاهرة الكبرى", `القاهرة الكبرى هي أكبر مدينة في مصر. See [[${CYRILLIC}]] and [[${CJK}|Tokyo Tower]].`, "note"],
    ]) await waitForSource(server, brainId, (await addText(server, brainId, title!, content!, { mode })).source.id);
    browser = await launchBrowser();
    w = await browser.newPage();
    await signedIn(w.page, server.url, server.key);
    await w.page.getByRole("heading", { level: 1, name: "Brains" }).waitFor();
  }, T);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  }, T);

  test("the list opens a page; its [[slug]] links open their targets; backlinks lead back", async () => {
    const page = w.page;
    await page.evaluate((h) => (location.hash = h), `#/brains/${brainId}/wiki`);
    const list = page.getByRole("navigation", { name: "Wiki pages" });
    await list.getByRole("link", { name: "القاهرة الكبرى" }).click();
    await page.waitForFunction((slug) => location.hash.endsWith(`/wiki/${encodeURIComponent(slug)}`), ARABIC);
    await page.locator("article .page-title").getByText("القاهرة الكبرى").waitFor();
    const article = page.locator("article");
    expect(await article.locator("a.wikilink").evaluateAll((as) => as.map((a) => a.getAttribute("data-slug")))).toEqual(expect.arrayContaining([CYRILLIC, CJK]));
    await article.getByRole("link", { name: "Tokyo Tower" }).click();
    await page.waitForFunction((slug) => location.hash.endsWith(`/wiki/${encodeURIComponent(slug)}`), CJK);
    await page.locator("article .page-title").getByText("東京タワー").waitFor();
    const backlinks = page.getByRole("region", { name: "Linked from" });
    await backlinks.getByRole("link", { name: "القاهرة الكبرى" }).click();
    await page.waitForFunction((slug) => location.hash.endsWith(`/wiki/${encodeURIComponent(slug)}`), ARABIC);
    await article.getByRole("link", { name: "Пётр Чайковский" }).click();
    await page.locator("article .page-title").getByText("Пётр Чайковский").waitFor();
    // The signed-out page's probe of its session cookie is a 401 the browser logs; nothing else may appear.
    expect(w.problems.filter((p) => !p.includes("Failed to load resource"))).toEqual([]);
  }, T);

  test("the graph around a Unicode slug draws the page and its neighbours", async () => {
    const page = w.page;
    await page.evaluate((h) => (location.hash = h), `#/brains/${brainId}/wiki/${encodeURIComponent(CJK)}`);
    await page.locator("article .page-title").getByText("東京タワー").waitFor();
    await page.getByRole("link", { name: "Show in graph" }).click();
    await page.getByRole("heading", { name: "Around one page" }).waitFor();
    const canvas = page.locator(".graph-canvas[data-nodes]");
    await canvas.waitFor();
    const ids: string[] = await page.evaluate(() => (window as any).__brainboxGraph.nodes().map((n: any) => n.id()));
    expect(Number(await canvas.getAttribute("data-nodes"))).toBe(ids.length);
    expect(ids).toEqual(expect.arrayContaining([ARABIC, CJK])); // the page and the note linking it (and, two hops away, what that links)
    for (const id of ids) expect([ARABIC, CJK, CYRILLIC]).toContain(id);
    expect(w.problems.filter((p) => !p.includes("Failed to load resource"))).toEqual([]);
  }, T);
});
