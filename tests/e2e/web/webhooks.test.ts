// Webhooks in a brain's settings, in a real browser against a real server and a loopback receiver: add a hook
// (the secret shown once, copied), send a test event and see it delivered in the log, turn the hook off and
// on, a private address refused in plain words, delete. The receiver verifies what it got with the secret.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { Webhook } from "standardwebhooks";
import { hasChromium, launchBrowser, screenshot, SKIP_MESSAGE, type Browser, type WatchedPage } from "../../support/browser";
import { expectJson, startTestServer, type TestServer } from "../../support/server";
import { newBrain } from "../../support/sources";
import { signedIn } from "../../web/workspace";

if (!hasChromium) console.warn(SKIP_MESSAGE);
const T = 60_000;

describe.skipIf(!hasChromium)("webhooks in the admin page", () => {
  const received: { body: string; headers: Record<string, string> }[] = [];
  let receiver: ReturnType<typeof Bun.serve>;
  let server: TestServer;
  let browser: Browser;
  let w: WatchedPage;
  let page: Page;
  let brainId = "";

  beforeAll(async () => {
    receiver = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      async fetch(req) {
        const headers: Record<string, string> = {};
        req.headers.forEach((v, k) => (headers[k] = v));
        received.push({ body: await req.text(), headers });
        return new Response(null, { status: 204 });
      },
    });
    server = await startTestServer({ BRAINBOX_FETCH_ALLOW_HOSTS: `127.0.0.1:${receiver.port}` });
    brainId = await newBrain(server, "Hooked");
    browser = await launchBrowser();
    await browser.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
    w = await browser.newPage();
    page = w.page;
    // Signed in as workspace.ts does (the sign-in screen now offers a password form and a key form).
    await signedIn(page, server.url, server.key);
    await page.getByRole("heading", { level: 1, name: "Brains" }).waitFor();
  }, T);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    receiver?.stop(true);
  }, T);

  const hookUrl = () => `http://127.0.0.1:${receiver.port}/hook`;
  const card = () => page.locator("article[data-webhook-id]", { hasText: hookUrl() });

  test("adds a webhook: the secret is shown once with a copy button, and the hook is listed", async () => {
    await page.evaluate((h) => (location.hash = h), `#/brains/${brainId}/settings`);
    await page.getByRole("heading", { name: "Webhooks" }).waitFor();
    await page.getByLabel("Receiver URL").fill(hookUrl());
    await page.getByLabel("A page's text changed (page.changed)").check();
    await page.getByRole("button", { name: "Add webhook" }).click();
    const secretBox = page.getByLabel("The webhook's signing secret");
    await secretBox.waitFor();
    const secret = await secretBox.inputValue();
    expect(secret).toMatch(/^whsec_/);
    await page.locator(".key-once").getByRole("button", { name: "Copy" }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await card().waitFor();
    expect(await card().textContent()).toContain("source.ready, page.changed");
    const { webhooks } = await expectJson(await server.api("/api/v1/webhooks"), 200);
    expect(webhooks).toEqual([expect.objectContaining({ url: hookUrl(), brainIds: [brainId], events: ["source.ready", "page.changed"] })]);
    await page.getByRole("button", { name: "I have stored it" }).click();
    expect(await secretBox.count()).toBe(0); // gone once dismissed, and never fetched again
    expect(JSON.stringify(webhooks)).not.toContain(secret);
    await screenshot(page, "webhooks-added");

    await card().getByRole("button", { name: `Send test event: ${hookUrl()}` }).click();
    await card().locator("tr[data-delivery-id]", { hasText: "webhook.test" }).locator(".badge.ready").waitFor({ timeout: 30_000 });
    expect(await card().locator("tr[data-delivery-id]").first().textContent()).toContain("HTTP 204");
    const got = received.find((r) => JSON.parse(r.body).type === "webhook.test")!;
    expect((new Webhook(secret).verify(got.body, got.headers) as any).data.webhookId).toBe(webhooks[0].id);
    await screenshot(page, "webhooks-log");
  }, T);

  test("turns the hook off and on", async () => {
    await card().getByRole("button", { name: `Turn off: ${hookUrl()}` }).click();
    await card().locator(".badge.failed", { hasText: "off" }).waitFor();
    expect((await expectJson(await server.api("/api/v1/webhooks"), 200)).webhooks[0].enabled).toBe(false);
    await card().getByRole("button", { name: `Turn on: ${hookUrl()}` }).click();
    await card().locator(".badge.ready", { hasText: "on" }).waitFor();
  }, T);

  test("a private address is refused in plain words, naming the allow-list; no event chosen is refused too", async () => {
    await page.getByLabel("Receiver URL").fill("http://10.0.0.7/hook");
    await page.getByLabel("A source is ready (source.ready)").uncheck();
    await page.getByRole("button", { name: "Add webhook" }).click();
    await page.locator("main .error").getByText("Choose at least one event to send.").waitFor();
    await page.getByLabel("A source is ready (source.ready)").check();
    await page.getByRole("button", { name: "Add webhook" }).click();
    await page.locator("main .error").getByText(/BRAINBOX_FETCH_ALLOW_HOSTS/).waitFor();
    expect((await expectJson(await server.api("/api/v1/webhooks"), 200)).webhooks.length).toBe(1);
  }, T);

  test("deletes the hook after confirming", async () => {
    await card().getByRole("button", { name: `Delete: ${hookUrl()}` }).click();
    await page.getByRole("button", { name: "Delete webhook" }).click();
    await page.getByText("No webhook takes this brain's events.").waitFor();
    expect((await expectJson(await server.api("/api/v1/webhooks"), 200)).webhooks).toEqual([]);
    expect(w.problems.filter((p) => !p.includes("Failed to load resource"))).toEqual([]);
  }, T);
});
