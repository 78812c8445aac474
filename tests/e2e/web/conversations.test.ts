// Conversations in the admin page's Ask tab, in Chromium against a real server: a follow-up continues the
// conversation and shows the standalone question searched, "New conversation" starts another, a listed one
// is continued, and one is deleted (after a confirmation), on the server too.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { hasChromium, screenshot, SKIP_MESSAGE } from "../../support/browser";
import { insertPages } from "../../support/pages";
import { expectJson, type TestServer } from "../../support/server";
import { newBrain } from "../../support/sources";
import { startWorkspace, type Workspace } from "../../web/workspace";

if (!hasChromium) console.warn(SKIP_MESSAGE);
const T = 60_000;

describe.skipIf(!hasChromium)("conversations in the Ask tab", () => {
  let ws: Workspace;
  let server: TestServer;
  let page: Page;
  let brainId: string;
  beforeAll(async () => {
    ws = await startWorkspace();
    ({ server, page } = ws);
    brainId = await newBrain(server, "Company");
    await insertPages(server.ctx.db, brainId, [
      { title: "Platform Team", markdown: "The platform team is led by Ada Okafor. The platform team runs the deployment pipeline and the Kubernetes clusters." },
      { title: "Ada Okafor", markdown: "Ada Okafor is based in Lisbon, Portugal. Ada Okafor joined the company in 2019 as a site reliability engineer." },
      { title: "Data Team", markdown: "The data team is led by Bruno Ritter. Bruno Ritter is based in Zurich and the data team maintains the warehouse." },
    ]);
  }, T);
  afterAll(() => ws?.close(), T);

  const ask = async (question: string) => {
    const before = await page.locator("article.turn").count();
    await page.getByLabel(/^Ask/).fill(question);
    await page.getByRole("button", { name: "Ask", exact: true }).click();
    await page.locator("article.turn").nth(before).waitFor();
    const turn = page.locator("article.turn", { hasText: question }).first();
    await turn.locator(".answer[aria-busy='false']").waitFor({ timeout: 30_000 });
    return turn;
  };
  const conversations = () => page.getByRole("region", { name: "Conversations" });
  const listed = async () => (await expectJson(await server.api("/api/v1/conversations"), 200)).conversations.filter((c: any) => c.brainId === brainId);

  test("ask, follow up, start anew, continue, delete", async () => {
    await ws.goto(`#/brains/${brainId}/ask`);
    await conversations().getByText(/No conversations yet/).waitFor();
    await ask("Who leads the platform team?");
    const followUp = await ask("Where is she based?");
    await followUp.locator(".answer").getByText(/Lisbon/).waitFor();
    const searched = followUp.locator(".standalone-question");
    expect(await searched.textContent()).toMatch(/Ada|Okafor/);
    const [first] = await listed();
    expect(first).toMatchObject({ title: "Who leads the platform team?", turns: 2 });
    await conversations().getByRole("button", { name: "Who leads the platform team?", exact: true }).waitFor();
    await screenshot(page, "20-conversation-follow-up");

    // A new conversation empties the tab; its first question is searched as asked.
    await conversations().getByRole("button", { name: "New conversation" }).click();
    expect(await page.locator("article.turn").count()).toBe(0);
    const other = await ask("Who leads the data team?");
    expect(await other.locator(".standalone-question").count()).toBe(0);
    await conversations().getByRole("button", { name: "Who leads the data team?", exact: true }).waitFor();
    expect((await listed()).length).toBe(2);

    // Continuing the first shows its turns; the next follow-up goes to it.
    await conversations().getByRole("button", { name: "Who leads the platform team?", exact: true }).click();
    await page.locator("article.turn", { hasText: "Where is she based?" }).locator(".standalone-question").waitFor();
    expect(await page.locator("article.turn").count()).toBe(2);
    await ask("When did she join?");
    await page.locator("article.turn", { hasText: "When did she join?" }).locator(".answer").getByText(/2019/).waitFor();
    const continued = (await listed()).find((c: any) => c.id === first.id);
    expect(continued.turns).toBe(3);

    // Deleting the data-team conversation, after the confirmation.
    const second = (await listed()).find((c: any) => c.id !== first.id);
    await conversations().getByRole("button", { name: "Delete conversation: Who leads the data team?" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Delete" }).click();
    await conversations().getByRole("button", { name: "Who leads the data team?", exact: true }).waitFor({ state: "detached" });
    await expectJson(await server.api(`/api/v1/conversations/${second.id}`), 404);
    expect((await listed()).map((c: any) => c.id)).toEqual([first.id]);
  }, T);
});
