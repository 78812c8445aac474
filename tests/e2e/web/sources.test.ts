// Sources on the admin page, in Chromium against a real server: files dropped on the page, a link to a
// private address refused in words that name the setting, a processing source's stage and elapsed time (and
// Re-process off meanwhile), and paid settings switched off on a server without a facilitator.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { hasChromium, screenshot, SKIP_MESSAGE, type Browser, type WatchedPage } from "../../support/browser";
import { expectJson, startTestServer, type TestServer } from "../../support/server";
import { hasRoute, startWorkspace, type Workspace } from "../../web/workspace";

if (!hasChromium) console.warn(SKIP_MESSAGE);

const T = 60_000;
const article = `<!doctype html><html><head><title>Slow tides</title></head><body><article><h1>Slow tides</h1>
<p>Tidal power converts the energy of tides into electricity. Tidal barrages were first built in France in 1966.</p></article></body></html>`;
// A slow page keeps its source processing long enough to see the stage and the elapsed time.
const site = hasChromium
  ? Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: (req) =>
        new URL(req.url).pathname === "/slow"
          ? Bun.sleep(4000).then(() => new Response(article, { headers: { "content-type": "text/html; charset=utf-8" } }))
          : new Response("not here", { status: 404 }),
    })
  : null;
const ws: Workspace | null = hasChromium ? await startWorkspace({ BRAINBOX_FETCH_ALLOW_HOSTS: `127.0.0.1:${site!.port}` }) : null;
const routes = { paid: ws ? await hasRoute(ws.server, "PUT", "/api/v1/brains/none/paid") : false };

describe.skipIf(!hasChromium)("sources on the admin page", () => {
  let server: TestServer;
  let browser: Browser;
  let w: WatchedPage;
  let page: Page;
  let brainId: string;
  beforeAll(async () => {
    ({ server, browser, w, page, brainId } = ws!);
    await ws!.goto(`#/brains/${brainId}/sources`);
    await page.getByRole("heading", { name: "Add a source" }).waitFor();
  });
  afterAll(async () => {
    await ws?.close();
    site?.stop(true);
  }, T);

  const sourceRow = (title: string) => page.locator("tr[data-source-id]", { hasText: title });

  test("drag-and-drop puts files in the upload list (an empty file is refused there)", async () => {
    await page.getByRole("radio", { name: "Files" }).check();
    await page.locator(".dropzone").evaluate((zone) => {
      const dt = new DataTransfer();
      dt.items.add(new File(["Tidal streams turn underwater turbines like wind turns windmills."], "streams.txt", { type: "text/plain" }));
      dt.items.add(new File([], "empty.txt", { type: "text/plain" }));
      for (const type of ["dragenter", "dragover", "drop"]) zone.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
    });
    await page.locator('.uploads li[data-file="streams.txt"]').getByText("ready to upload").waitFor();
    await page.locator('.uploads li[data-file="empty.txt"]').getByText("Empty file").waitFor();
    await page.getByRole("button", { name: "Upload", exact: true }).click();
    await page.locator('.uploads li[data-file="streams.txt"] .upload-status', { hasText: "Uploaded streams.txt" }).waitFor();
    const row = page.locator("tr[data-source-id]", { hasText: "streams.txt" });
    await row.locator(".badge.ready").waitFor({ timeout: 30_000 });
    // Nothing else was uploaded: the empty file never left the browser.
    const { sources } = await expectJson(await server.api(`/api/v1/brains/${brainId}/sources`), 200);
    expect(sources.map((x: any) => x.filename ?? x.title).sort()).toEqual(["Glossary", "Tidal barrages", "streams.txt"]);
  }, T);

  test("a link to a private address is refused in words that name BRAINBOX_FETCH_ALLOW_HOSTS", async () => {
    await page.getByRole("radio", { name: "Link" }).check();
    await page.getByLabel("URL").fill("http://127.0.0.1:9/internal");
    await page.getByRole("button", { name: "Add link" }).click();
    const error = page.locator("main .error", { hasText: "BRAINBOX_FETCH_ALLOW_HOSTS" });
    await error.waitFor();
    expect(await error.getAttribute("data-code")).toBe("invalid_request");
    expect(await page.getByLabel("URL").getAttribute("aria-invalid")).toBe("true");
    expect(await sourceRow("127.0.0.1:9").count()).toBe(0);
    await screenshot(page, "05-blocked-link");
  }, T);

  test("a processing source shows its stage and elapsed time, and cannot be re-processed until done", async () => {
    await page.getByRole("radio", { name: "Link" }).check();
    await page.getByLabel("URL").fill(`http://127.0.0.1:${site!.port}/slow`);
    await page.getByRole("button", { name: "Add link" }).click();
    const row = sourceRow("/slow");
    await row.locator(".badge.processing, .badge.pending").waitFor();
    await row.locator(".stage", { hasText: /\d+ s$/ }).waitFor();
    expect(await row.locator(".stage").textContent()).toMatch(/^(Waiting its turn|Reading and writing pages|.+) · \d+ s$/);
    expect(await row.getByRole("button", { name: /^Re-process/ }).isDisabled()).toBe(true);
    await screenshot(page, "05-processing");
    const ready = sourceRow("Slow tides");
    await ready.locator(".badge.ready").waitFor({ timeout: 30_000 });
    expect(await ready.getByRole("button", { name: /^Re-process/ }).isDisabled()).toBe(false);
    expect(await ready.locator(".stage").textContent()).toBe("");
    await ready.getByRole("button", { name: /^Delete/ }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
    await ready.waitFor({ state: "detached" });
  }, T);

  test.skipIf(!routes.paid)("without a facilitator the paid settings are explained and off, naming the variable to set", async () => {
    const plain = await startTestServer();
    try {
      const { brain } = await expectJson(await plain.api("/api/v1/brains", { method: "POST", json: { name: "Unpaid" } }), 201);
      const tab = await browser.newPage();
      await tab.page.goto(plain.url);
      await tab.page.evaluate((k) => sessionStorage.setItem("brainbox.apiKey", k), plain.key);
      await tab.page.evaluate((id) => (location.hash = `#/brains/${id}/settings`), brain.id);
      await tab.page.reload();
      const notice = tab.page.getByText("This server cannot take payments yet.");
      await notice.waitFor();
      expect(await tab.page.locator("main").textContent()).toContain("BRAINBOX_X402_FACILITATOR_URL");
      expect(await tab.page.getByLabel("Price per question (USDC)").isDisabled()).toBe(true);
      expect(await tab.page.getByRole("button", { name: "Charge for this brain" }).isDisabled()).toBe(true);
      await screenshot(tab.page, "14-paid-off");
      expect(tab.problems.filter((p) => !p.includes("Failed to load resource"))).toEqual([]);
      await tab.page.close();
    } finally {
      await plain.close();
    }
  }, T);

  test("no script errors and no CSP violations", () => {
    expect(w.problems.filter((p) => !p.includes("Failed to load resource"))).toEqual([]);
  });
});
