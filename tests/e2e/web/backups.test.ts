// Backups and the Obsidian vault in the admin page, in a real browser against a real server: the admin makes a
// backup from the page and follows it until it is ready, downloads it (a tar whose first entry is the
// manifest) and deletes it; someone else sees no backups screen. In a brain's settings: the vault exported
// (a zip of the brain's pages as .md), a vault the test builds imported (its pages open in the wiki), and
// bad uploads (not a zip, a fake zip, too large) refused in plain words with nothing imported.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { strToU8, unzipSync, zipSync } from "fflate";
import type { Download, Page } from "playwright-core";
import { readEntries } from "../../backup/archive";
import { createAccount } from "../../../src/modules/accounts/service";
import { createApiKey } from "../../../src/modules/auth/keys";
import { ARTIFACTS_DIR, hasChromium, launchBrowser, screenshot, SKIP_MESSAGE, type Browser, type WatchedPage } from "../../support/browser";
import { expectJson, startTestServer, tempDir, type TestServer } from "../../support/server";
import { addTextsReady, newBrain, pagesOf } from "../../support/sources";
import { signedIn } from "../../web/workspace";

if (!hasChromium) console.warn(SKIP_MESSAGE);
const T = 90_000;
const VAULT_MAX_BYTES = 16 * 1024;

describe.skipIf(!hasChromium)("backups and vaults in the admin page", () => {
  let server: TestServer;
  let browser: Browser;
  let w: WatchedPage;
  let page: Page;
  let brainId = "";

  beforeAll(async () => {
    server = await startTestServer({ BRAINBOX_VAULT_MAX_BYTES: String(VAULT_MAX_BYTES) });
    brainId = await newBrain(server, "Harbour");
    await addTextsReady(server, brainId, {
      "Harbour opening hours": "The Marren harbour office opens at seven in the morning and closes at six.",
      "Ferry timetable": "The ferry to Osk leaves the Marren harbour every two hours from eight.",
    });
    browser = await launchBrowser();
    w = await browser.newPage();
    page = w.page;
    await signedIn(page, server.url, server.key);
    await page.getByRole("heading", { level: 1, name: "Brains" }).waitFor();
  }, T);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  }, T);

  const goto = (hash: string) => page.evaluate((h) => (location.hash = h), hash);
  const saved = async (download: Download, name: string) => {
    const path = join(tempDir(), name);
    await download.saveAs(path);
    return path;
  };

  test("the admin backs up from the page, sees it become ready, downloads the tar and deletes it", async () => {
    await page.getByRole("navigation").getByRole("link", { name: "Backups" }).click();
    await page.getByRole("heading", { level: 1, name: "Backups" }).waitFor();
    await page.getByText("No backups yet.").waitFor();
    // The restore is the command line's, and the page says so with the command.
    expect(await page.getByLabel("The restore command").textContent()).toContain("brainbox restore");

    await page.getByRole("button", { name: "Back up now" }).click();
    const row = page.locator("tr[data-backup-id]");
    await page.locator('tr[data-status="ready"]').waitFor({ timeout: 60_000 });
    expect(await row.count()).toBe(1);
    const id = (await row.getAttribute("data-backup-id"))!;
    const { backup } = await expectJson(await server.api(`/api/v1/admin/backups/${id}`), 200);
    expect(backup.status).toBe("ready");
    const text = (await row.textContent())!;
    expect(text).toContain(backup.schema); // the schema's migration, e.g. 0031_…
    expect(text).toContain("Owner"); // created by, by name
    expect(await row.getByRole("cell").nth(4).textContent()).toBe(String(backup.files));
    await screenshot(page, "backups");

    const [download] = await Promise.all([page.waitForEvent("download"), row.getByRole("link", { name: /^Download the backup of / }).click()]);
    expect(download.suggestedFilename()).toBe(`brainbox-${id}.tar`);
    const entries = await readEntries(await saved(download, "backup.tar"));
    expect(entries[0]!.name).toBe("manifest.json");
    const manifest = JSON.parse(new TextDecoder().decode(entries[0]!.data));
    expect(manifest.format).toBe("brainbox-backup");
    expect(entries.map((e) => e.name)).toContain("brainbox.db");

    await row.getByRole("button", { name: /^Delete the backup of / }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete backup" }).click();
    await page.getByText("No backups yet.").waitFor();
    expect((await expectJson(await server.api("/api/v1/admin/backups"), 200)).backups).toEqual([]);
  }, T);

  test("someone who is not the server's admin sees no backups screen; as the brain's editor, its settings hold only the vault", async () => {
    const editor = await createAccount(server.ctx.db, { name: "Not the admin", planId: "pro" });
    await expectJson(await server.api(`/api/v1/brains/${brainId}/shares/accounts/${editor.id}`, { method: "PUT", json: { role: "editor" } }), 200);
    const other = await browser.newPage();
    try {
      await signedIn(other.page, server.url, (await createApiKey(server.ctx.db, editor.id, "test")).key);
      await other.page.getByRole("heading", { level: 1, name: "Brains" }).waitFor();
      const nav = other.page.getByRole("navigation").first();
      await nav.getByRole("link", { name: "Audit log" }).waitFor();
      expect(await nav.getByRole("link", { name: "Backups" }).count()).toBe(0);
      await other.page.evaluate(() => (location.hash = "#/backups"));
      await other.page.getByText("Only the server's admin makes and downloads backups").waitFor();
      expect(await other.page.getByRole("button", { name: "Back up now" }).count()).toBe(0);

      await other.page.evaluate((h) => (location.hash = h), `#/brains/${brainId}`);
      await other.page.getByRole("navigation", { name: "Brain sections" }).getByRole("link", { name: "Settings" }).click();
      await other.page.getByRole("heading", { level: 2, name: "Obsidian vault" }).waitFor();
      expect(await other.page.locator("main h2").allTextContents()).toEqual(["Obsidian vault"]);
      await other.page.getByRole("link", { name: "Export Harbour as an Obsidian vault (.zip)" }).waitFor();
    } finally {
      await other.page.close();
    }
  }, T);

  test("a brain's settings export it as a vault: a zip of its pages as Markdown notes", async () => {
    await goto(`#/brains/${brainId}/settings`);
    await page.getByRole("heading", { name: "Obsidian vault" }).waitFor();
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Export Harbour as an Obsidian vault (.zip)" }).click()]);
    expect(download.suggestedFilename()).toMatch(/-vault\.zip$/);
    const vault = unzipSync(new Uint8Array(readFileSync(await saved(download, "vault.zip"))));
    const pages = await pagesOf(server, brainId);
    expect(pages.length).toBeGreaterThan(0);
    for (const p of pages) expect(new TextDecoder().decode(vault[`${p.slug}.md`])).toContain(`title: ${JSON.stringify(p.title)}`);
  }, T);

  test("imports a vault the test builds: counted, its pages listed and opening in the wiki", async () => {
    const zip = zipSync({
      "Lighthouse walk.md": strToU8("---\ntitle: Lighthouse walk\n---\nThe walk starts at the harbour; check the [[Tide tables]] first."),
      "Tide tables.md": strToU8("High tide at Marren is at noon on Sundays."),
      "map.png": new Uint8Array([137, 80, 78, 71]),
    });
    await page.getByLabel("Vault zip").setInputFiles({ name: "walks.zip", mimeType: "application/zip", buffer: Buffer.from(zip) });
    await page.getByRole("button", { name: "Import vault" }).click();
    const section = page.getByRole("region", { name: "Obsidian vault" });
    await section.getByText("Imported 2 notes").waitFor();
    expect(await section.getByRole("status").textContent()).toContain("skipped 1 file");
    const made = page.getByRole("list", { name: "Pages made by the import" });
    expect(await made.getByRole("link").allTextContents()).toEqual(expect.arrayContaining(["Lighthouse walk", "Tide tables"]));
    await section.screenshot({ path: join(ARTIFACTS_DIR, "vault-imported.png") });
    await made.getByRole("link", { name: "Lighthouse walk" }).click();
    await page.getByRole("heading", { name: "Lighthouse walk" }).first().waitFor();
    await page.getByText("check the").waitFor();
    expect((await pagesOf(server, brainId)).map((p) => p.title)).toEqual(expect.arrayContaining(["Lighthouse walk", "Tide tables"]));
  }, T);

  test("bad uploads are refused in plain words, and nothing is imported", async () => {
    await goto(`#/brains/${brainId}/settings`);
    await page.getByRole("heading", { name: "Obsidian vault" }).waitFor();
    const before = (await pagesOf(server, brainId)).length;
    const box = page.locator('form[aria-label="Import a vault"] .error');
    const refused = async (file: { name: string; mimeType: string; buffer: Buffer }, status: string, words: string | RegExp) => {
      await page.getByLabel("Vault zip").setInputFiles(file);
      await page.getByRole("button", { name: "Import vault" }).click();
      await box.getByText(words).waitFor();
      expect(await box.getAttribute("data-status")).toBe(status);
      expect(await box.getAttribute("role")).toBe("alert");
    };
    await refused({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("Just some notes.") }, "415", "This file is not a zip. Choose the vault as a .zip file (zip the vault's folder first).");
    await refused({ name: "fake.zip", mimeType: "application/zip", buffer: Buffer.from("PK but not really a zip at all") }, "422", /^The vault was refused: .+ Nothing was imported\.$/);
    const big = zipSync({ "Big.md": crypto.getRandomValues(new Uint8Array(VAULT_MAX_BYTES * 2)) }, { level: 0 });
    await refused({ name: "big.zip", mimeType: "application/zip", buffer: Buffer.from(big) }, "413", /^The vault is larger than .*BRAINBOX_VAULT_MAX_BYTES.*ask the server's administrator to raise the limit\. Nothing was imported\.$/);
    expect((await pagesOf(server, brainId)).length).toBe(before);
    await screenshot(page, "vault-refused");
    expect(w.problems.filter((p) => !p.includes("Failed to load resource"))).toEqual([]);
  }, T);

  test("signed in with a password (the session cookie, no key in the tab), the browser follows the download link itself", async () => {
    const tab = await browser.newPage();
    try {
      await tab.page.goto(server.setupUrl!);
      await tab.page.getByLabel("Email").fill("owner@example.com");
      await tab.page.getByLabel("New password").fill("a long enough passphrase");
      await tab.page.getByLabel("Repeat the password").fill("a long enough passphrase");
      await tab.page.getByRole("button", { name: "Save and sign in" }).click();
      await tab.page.getByRole("heading", { level: 1, name: "Brains" }).waitFor();
      expect(await tab.page.evaluate(() => sessionStorage.length)).toBe(0);
      const fetched: string[] = [];
      tab.page.on("request", (r) => r.resourceType() === "fetch" && fetched.push(r.url()));
      await tab.page.evaluate((h) => (location.hash = h), `#/brains/${brainId}/settings`);
      const [download] = await Promise.all([tab.page.waitForEvent("download"), tab.page.getByRole("link", { name: "Export Harbour as an Obsidian vault (.zip)" }).click()]);
      const vault = unzipSync(new Uint8Array(readFileSync(await saved(download, "cookie-vault.zip"))));
      expect(Object.keys(vault)).toEqual(expect.arrayContaining(["lighthouse-walk.md", "tide-tables.md"]));
      expect(fetched.some((u) => u.endsWith("/export"))).toBe(false); // streamed by the browser, not through a blob
    } finally {
      await tab.page.close();
    }
  }, T);
});
