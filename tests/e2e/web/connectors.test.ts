// The Connectors tab in Chromium against a real server and a loopback site: add a website connector by the
// form, its first run's status and counts, sync now, pause, a bad field named in words, delete.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { hasChromium, screenshot, SKIP_MESSAGE, type WatchedPage } from "../../support/browser";
import { startWorkspace, type Workspace } from "../../web/workspace";
import { startSite, type Site } from "../../connectors/site";

if (!hasChromium) console.warn(SKIP_MESSAGE);

const T = 120_000;

describe.skipIf(!hasChromium)("connectors on the admin page", () => {
  let ws: Workspace;
  let site: Site;
  let w: WatchedPage;
  let page: Page;
  beforeAll(async () => {
    site = startSite();
    site.pages.set("/handbook/", { title: "Harbour handbook", body: "The harbour handbook for the lock keepers.", links: ["/handbook/locks"] });
    site.pages.set("/handbook/locks", { title: "Locks", body: "The lock opens two hours before high water." });
    ws = await startWorkspace({ BRAINBOX_FETCH_ALLOW_HOSTS: "127.0.0.1" });
    ({ w, page } = ws);
    await ws.goto(`#/brains/${ws.brainId}/connectors`);
    await page.getByRole("heading", { name: "Add a connector" }).waitFor();
  }, T);
  afterAll(async () => {
    await ws?.close();
    site?.stop();
  }, T);

  const card = (name: string) => page.locator("article[data-connector-id]", { hasText: name });

  test("a bad start URL is refused in words, naming the field", async () => {
    await page.getByLabel("Name", { exact: true }).fill("Broken");
    await page.getByLabel("Start URLs").fill("ftp://example.com/");
    await page.getByRole("button", { name: "Add connector" }).click();
    await page.getByRole("alert").filter({ hasText: "must be http or https" }).waitFor();
    expect(await page.getByLabel("Start URLs").getAttribute("aria-invalid")).toBe("true");
  }, T);

  test("add a website connector by the form: its first run syncs the pages; a secret header is shown only as set", async () => {
    await page.getByLabel("Name", { exact: true }).fill("Harbour handbook");
    await page.getByLabel("Start URLs").fill(`${site.url}/handbook/`);
    await page.getByLabel("Schedule").selectOption("every 1d");
    await page.getByLabel("Header name").fill("Authorization");
    await page.getByLabel("Header value").fill("Bearer harbour-secret");
    await page.getByRole("button", { name: "Add connector" }).click();
    const c = card("Harbour handbook");
    await c.locator(".run-status", { hasText: /^Synced$/ }).waitFor({ timeout: 60_000 });
    await c.getByText("2 added, 0 updated, 0 unchanged, 0 removed, 0 failed").waitFor();
    await c.getByText("(with a secret header)").waitFor();
    expect(await page.content()).not.toContain("harbour-secret");
    expect(site.requests.filter((r) => r.path.startsWith("/handbook")).every((r) => r.headers.get("authorization") === "Bearer harbour-secret")).toBe(true);
    await screenshot(page, "connectors-synced");
  }, T);

  test("sync now runs it again (nothing changed: unchanged), pause and resume change its schedule", async () => {
    const c = card("Harbour handbook");
    await c.getByRole("button", { name: "Sync now" }).click();
    await c.getByText("0 added, 0 updated, 2 unchanged, 0 removed, 0 failed").waitFor({ timeout: 60_000 });
    await c.getByRole("button", { name: "Pause" }).click();
    await c.getByRole("button", { name: "Resume" }).waitFor();
    await c.getByText("every 1d (paused)").waitFor();
    await c.getByRole("button", { name: "Resume" }).click();
    await c.getByRole("button", { name: "Pause" }).waitFor();
  }, T);

  test("a run's problems are listed in plain words", async () => {
    site.pages.set("/handbook/", { title: "Harbour handbook", body: "The harbour handbook for the lock keepers.", links: ["/handbook/locks", "/loop/0"] });
    const c = card("Harbour handbook");
    await c.getByRole("button", { name: "Sync now" }).click();
    await c.locator(".run-errors", { hasText: "redirects in a loop" }).waitFor({ timeout: 60_000 });
  }, T);

  test("delete removes the connector and its sources", async () => {
    const c = card("Harbour handbook");
    await c.getByRole("button", { name: "Delete" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
    await page.getByText("No connectors yet.").waitFor();
    const { sources } = (await (await ws.server.api(`/api/v1/brains/${ws.brainId}/sources`)).json()) as any;
    expect(sources.map((s: any) => s.title).sort()).toEqual(["Glossary", "Tidal barrages"]);
  }, T);

  test("no script errors and no CSP violations", () => {
    expect(w.problems.filter((p) => !p.includes("Failed to load resource"))).toEqual([]);
  });
});
