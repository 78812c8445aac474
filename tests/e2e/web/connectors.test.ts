// The Connectors tab in Chromium against a real server and a loopback site: add a website connector by the
// form, its first run's status and counts, sync now, pause, a bad field named in words, delete; a server folder
// and a Git repository on the server added by their forms, a path outside the allowed roots refused on its field.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { hasChromium, screenshot, SKIP_MESSAGE, type WatchedPage } from "../../support/browser";
import { startWorkspace, type Workspace } from "../../web/workspace";
import { startSite, type Site } from "../../connectors/site";
import { hasGit, makeRepo, serveRepos } from "../../connectors/git-repo";
import { tempDir } from "../../support/temp-dirs";

if (!hasChromium) console.warn(SKIP_MESSAGE);

const T = 120_000;

describe.skipIf(!hasChromium)("connectors on the admin page", () => {
  let ws: Workspace;
  let site: Site;
  let w: WatchedPage;
  let page: Page;
  const folderRoot = tempDir("brainbox-folder-root-");
  const gitRoot = tempDir("brainbox-git-root-");
  const outside = tempDir("brainbox-outside-");
  beforeAll(async () => {
    site = startSite();
    site.pages.set("/handbook/", { title: "Harbour handbook", body: "The harbour handbook for the lock keepers.", links: ["/handbook/locks"] });
    site.pages.set("/handbook/locks", { title: "Locks", body: "The lock opens two hours before high water." });
    mkdirSync(join(folderRoot, "share", "guides"), { recursive: true });
    writeFileSync(join(folderRoot, "share", "lock-keeping.md"), "# Lock keeping\n\nThe keeper logs every vessel that passes the lock.\n");
    writeFileSync(join(folderRoot, "share", "guides", "sluices.md"), "# Sluices\n\nSluices are opened at low tide to drain the basin.\n");
    writeFileSync(join(folderRoot, "share", "photo.png"), "not a document");
    ws = await startWorkspace({ BRAINBOX_FETCH_ALLOW_HOSTS: "127.0.0.1", BRAINBOX_CONNECTOR_FOLDER_ROOTS: folderRoot, BRAINBOX_CONNECTOR_GIT_ROOTS: gitRoot });
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

  test("a folder path outside the allowed roots is refused on its field", async () => {
    await page.getByLabel("Kind").selectOption("folder");
    await page.getByLabel("Name", { exact: true }).fill("Outside");
    await page.getByLabel("Folder path").fill(outside);
    await page.getByRole("button", { name: "Add connector" }).click();
    await page.getByRole("alert").filter({ hasText: "outside the folders allowed by BRAINBOX_CONNECTOR_FOLDER_ROOTS" }).waitFor();
    expect(await page.getByLabel("Folder path").getAttribute("aria-invalid")).toBe("true");
    expect(await page.locator("article[data-connector-id]").count()).toBe(0);
  }, T);

  test("add a server folder by its form: sync now shows its counts", async () => {
    await page.getByLabel("Kind").selectOption("folder");
    await page.getByLabel("Name", { exact: true }).fill("Lock share");
    await page.getByLabel("Folder path").fill(join(folderRoot, "share"));
    await page.getByRole("button", { name: "Add connector" }).click();
    const c = card("Lock share");
    await c.getByText(`Files in ${join(folderRoot, "share")}`).waitFor();
    await c.getByRole("button", { name: "Sync now" }).click();
    await c.getByText("2 added, 0 updated, 0 unchanged, 0 removed, 0 failed").waitFor({ timeout: 60_000 });
    writeFileSync(join(folderRoot, "share", "guides", "sluices.md"), "# Sluices\n\nSluices are opened at low tide; the keeper checks the gauge first.\n");
    await c.getByRole("button", { name: "Sync now" }).click();
    await c.getByText("0 added, 1 updated, 1 unchanged, 0 removed, 0 failed").waitFor({ timeout: 60_000 });
    const { sources } = (await (await ws.server.api(`/api/v1/brains/${ws.brainId}/sources`)).json()) as any;
    expect(sources.map((s: any) => s.title).sort()).toEqual(["Glossary", "Lock keeping", "Sluices", "Tidal barrages"]);
  }, T);

  test.skipIf(!hasGit)("a Git repository on the server by its form; a bad path and a token for a path are refused on their fields", async () => {
    const repo = makeRepo(gitRoot, "handbook", { "docs/weirs.md": "# Weirs\n\nA weir holds the river back above the lock.\n", "src/app.ts": "export {};\n" });
    await page.getByLabel("Kind").selectOption("git");
    await page.getByLabel("Name", { exact: true }).fill("Handbook repo");
    await page.getByLabel("Repository").fill(join(gitRoot, "nowhere"));
    await page.getByRole("button", { name: "Add connector" }).click();
    await page.getByRole("alert").filter({ hasText: "does not exist on the server" }).waitFor();
    expect(await page.getByLabel("Repository").getAttribute("aria-invalid")).toBe("true");
    await page.getByLabel("Repository").fill(repo.bare);
    await page.getByLabel("Token").fill("ghp_not-for-a-path");
    await page.getByRole("button", { name: "Add connector" }).click();
    await page.getByRole("alert").filter({ hasText: "config.token is for an https repository" }).waitFor();
    expect(await page.getByLabel("Token").getAttribute("aria-invalid")).toBe("true");
    await page.getByLabel("Token").fill("");
    await page.getByLabel("Branch").fill("main");
    await page.getByLabel("Only files").fill("docs/**/*.md");
    await page.getByLabel("File page URL").fill("https://forge.example/team/handbook/blob/{branch}/{path}");
    await page.getByRole("button", { name: "Add connector" }).click();
    const c = card("Handbook repo");
    await c.getByText("(branch main)").waitFor();
    await c.getByRole("button", { name: "Sync now" }).click();
    await c.getByText("1 added, 0 updated, 0 unchanged, 0 removed, 0 failed").waitFor({ timeout: 60_000 });
    const { sources } = (await (await ws.server.api(`/api/v1/brains/${ws.brainId}/sources`)).json()) as any;
    expect(sources.find((s: any) => s.title === "Weirs")?.url).toBe("https://forge.example/team/handbook/blob/main/docs/weirs.md");
    expect(await page.content()).not.toContain("ghp_not-for-a-path");
    await screenshot(page, "connectors-folder-and-git");
  }, T);

  test.skipIf(!hasGit)("a Git repository by URL with a token: the token is used, and shown only as set", async () => {
    makeRepo(gitRoot, "forge", { "guide/dredging.md": "# Dredging\n\nThe channel is dredged every spring to keep it navigable.\n" });
    const forge = serveRepos(gitRoot);
    try {
      await page.getByLabel("Kind").selectOption("git");
      await page.getByLabel("Name", { exact: true }).fill("Forge repo");
      await page.getByLabel("Repository").fill(`${forge.url}/forge.git`);
      await page.getByLabel("Token").fill("forge-token-harbour");
      await page.getByRole("button", { name: "Add connector" }).click();
      const c = card("Forge repo");
      await c.getByText("(with a token)").waitFor();
      await c.getByRole("button", { name: "Sync now" }).click();
      await c.getByText("1 added, 0 updated, 0 unchanged, 0 removed, 0 failed").waitFor({ timeout: 60_000 });
      expect(await page.content()).not.toContain("forge-token-harbour");
      const { connectors } = (await (await ws.server.api(`/api/v1/brains/${ws.brainId}/connectors`)).json()) as any;
      expect(connectors.find((x: any) => x.name === "Forge repo").secrets).toEqual({ token: "set" });
      const basic = `Basic ${Buffer.from("x-access-token:forge-token-harbour").toString("base64")}`;
      expect(forge.requests.length).toBeGreaterThan(0);
      expect(forge.requests.every((r) => r.auth === basic)).toBe(true);
    } finally {
      forge.stop();
    }
  }, T);

  test("no script errors and no CSP violations", () => {
    expect(w.problems.filter((p) => !p.includes("Failed to load resource"))).toEqual([]);
  });
});
