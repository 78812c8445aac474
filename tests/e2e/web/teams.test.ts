// Teams in the admin page, in Chromium (issue 56): the owner shares a brain from its settings (Share
// panel), invites by email (the link shown once), makes a team and invites to it; the colleague sees the
// brain under "Shared with me" with their role, as an editor without the settings; a brain set is shared
// from its card. At desktop and phone widths.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { hasChromium, launchBrowser, screenshot, SKIP_MESSAGE, type Browser } from "../../support/browser";
import { expectJson, startTestServer, type TestServer } from "../../support/server";
import { newBrain } from "../../support/sources";
import { signedIn } from "../../web/workspace";

if (!hasChromium) console.warn(SKIP_MESSAGE);
const T = 60_000;

describe.skipIf(!hasChromium)("teams and sharing in the admin page", () => {
  let s: TestServer;
  let browser: Browser;
  let brainId: string;
  let bo: { id: string; key: string; email: string };
  beforeAll(async () => {
    s = await startTestServer();
    brainId = await newBrain(s, "Engineering handbook");
    const other = await newBrain(s, "Runbooks");
    await expectJson(await s.api("/api/v1/brain-sets", { method: "POST", json: { name: "Ops blend", primaryBrainId: brainId, advisorBrainIds: [other] } }), 201);
    const made = await expectJson(await s.api("/api/v1/admin/accounts", { method: "POST", json: { name: "Bo", plan: "pro", email: "bo@example.test" } }), 201);
    bo = { id: made.account.id, key: made.apiKey.key, email: "bo@example.test" };
    browser = await launchBrowser();
  }, T);
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  }, T);

  for (const width of [1280, 390]) {
    test(`the owner shares a brain and invites; the colleague sees it shared, as an editor (width ${width})`, async () => {
      const w = await browser.newPage({ width, height: 860 });
      const page = w.page;
      await signedIn(page, s.url, s.key, `#/brains/${brainId}/settings`);
      const panel = page.getByRole("region", { name: "Sharing" });
      await panel.waitFor();
      const list = panel.getByRole("list", { name: "People and teams with access to Engineering handbook" });
      await list.getByRole("listitem").first().waitFor();
      await panel.getByLabel("Account or team id").fill(bo.id);
      await panel.getByLabel("Role", { exact: true }).first().selectOption("editor");
      await panel.getByRole("button", { name: "Share", exact: true }).click();
      await list.getByText("bo@example.test").waitFor();
      await panel.getByLabel("Invite by email").fill(`dee.${width}@example.test`);
      await panel.getByRole("button", { name: "Invite" }).click();
      const link = panel.getByRole("status").filter({ hasText: "#/invitation/bb_inv_" });
      await link.waitFor();
      await screenshot(page, `share-panel-${width}`);

      await page.evaluate(() => (location.hash = "#/teams"));
      await page.getByRole("heading", { level: 1, name: "People & teams" }).waitFor();
      await page.getByLabel("Team name").fill(`Platform ${width}`);
      await page.getByRole("button", { name: "Create team" }).click();
      const card = page.getByRole("article", { name: `Team Platform ${width}` });
      await card.waitFor();
      await card.getByLabel("Invite by email").fill(bo.email);
      await card.getByRole("button", { name: "Invite" }).click();
      const teamLink = card.getByRole("status").filter({ hasText: "#/invitation/bb_inv_" });
      await teamLink.waitFor();
      const url = (await teamLink.locator("code").textContent())!;
      await screenshot(page, `teams-${width}`);
      expect(w.problems.filter((p) => !p.includes("Failed to load resource"))).toEqual([]);
      await page.close();

      const c = await browser.newPage({ width, height: 860 });
      await signedIn(c.page, s.url, bo.key, "#/shared");
      await c.page.getByRole("heading", { level: 1, name: "Shared with me" }).waitFor();
      const item = c.page.getByRole("list", { name: "Shared with me" }).getByRole("listitem").filter({ hasText: "Engineering handbook" });
      await expect(item.textContent()).resolves.toContain("editor");
      await item.getByRole("link").click();
      await c.page.getByText("editor: shared with you").waitFor();
      // An editor adds sources; its settings tab holds only the vault (no sharing, no deleting).
      await c.page.getByRole("navigation", { name: "Brain sections" }).getByRole("link", { name: "Settings" }).click();
      await c.page.getByRole("heading", { level: 2, name: "Obsidian vault" }).waitFor();
      expect(await c.page.locator("main h2").allTextContents()).toEqual(["Obsidian vault"]);
      // The colleague opens the team invitation's link and accepts it.
      await c.page.evaluate((hash) => (location.hash = hash), new URL(url).hash);
      await c.page.getByRole("heading", { level: 1, name: "Invitation" }).waitFor();
      await c.page.getByRole("button", { name: "Accept invitation" }).click();
      await c.page.getByRole("link", { name: /See your teams/ }).click();
      await c.page.getByRole("article", { name: `Team Platform ${width}` }).waitFor();
      // The same link a second time: a clear error, in plain words.
      await c.page.evaluate((hash) => (location.hash = hash), new URL(url).hash);
      await c.page.getByRole("button", { name: "Accept invitation" }).click();
      await c.page.getByText("already used").waitFor();
      expect(c.problems.filter((p) => !p.includes("Failed to load resource"))).toEqual([]);
      await c.page.close();
    }, T);
  }

  test("a brain set is shared from its card", async () => {
    const w = await browser.newPage();
    await signedIn(w.page, s.url, s.key, "#/sets");
    const card = w.page.getByRole("article", { name: "Brain set Ops blend" });
    await card.getByRole("button", { name: "Share" }).click();
    await card.getByLabel("Account or team id").fill(bo.id);
    await card.getByRole("button", { name: "Share", exact: true }).last().click();
    await card.getByRole("list", { name: "People and teams with access to Ops blend" }).getByText("bo@example.test").waitFor();
    const sets = await expectJson(await s.api("/api/v1/brain-sets", { key: bo.key }), 200);
    expect(sets.brainSets.map((x: any) => [x.name, x.role])).toEqual([["Ops blend", "viewer"]]);
    await w.page.close();
  }, T);
});
