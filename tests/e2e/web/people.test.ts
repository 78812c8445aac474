// People in the admin page, in Chromium at desktop and phone (390 px) widths: the first start's setup link
// (email and password, then signed in), signing out and in with a password (a wrong one readably refused),
// a citation link opened in a browser landing on the page view (after sign-in when needed), and "sign out
// everywhere" ending another browser's session too. No script errors, no CSP violations.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { hasChromium, launchBrowser, screenshot, SKIP_MESSAGE, type Browser } from "../../support/browser";
import { insertPages } from "../../support/pages";
import { newBrain } from "../../support/sources";
import { expectJson, startTestServer, type TestServer } from "../../support/server";
import { newPerson } from "../../people/support";

if (!hasChromium) console.warn(SKIP_MESSAGE);
const T = 60_000;
const PASSWORD = "a long owner password";

for (const [label, width, height] of [["desktop", 1280, 860], ["phone", 390, 844]] as const) {
  describe.skipIf(!hasChromium)(`people in the admin page (${label})`, () => {
    let s: TestServer;
    let browser: Browser;
    let page: Page;
    let problems: string[];
    let citation = "";
    const email = `owner-${label}@example.com`;
    const heading = (p: Page, name: string | RegExp) => p.getByRole("heading", { level: 1, name });

    beforeAll(async () => {
      s = await startTestServer();
      const brainId = await newBrain(s, "Handbook");
      await insertPages(s.ctx.db, brainId, [{ slug: "on-call", title: "On call", markdown: "# On call\n\nThe on-call rota changes every Monday." }]);
      const answer = await expectJson(await s.api(`/api/v1/brains/${brainId}/ask`, { method: "POST", json: { question: "When does the on-call rota change?" } }), 200);
      citation = answer.citations[0].url;
      browser = await launchBrowser();
      ({ page, problems } = await browser.newPage({ width, height }));
    }, T);
    afterAll(async () => {
      await browser?.close();
      await s?.close();
    }, T);

    test("the setup link: the owner chooses an email and a password and is signed in; the link then is spent", async () => {
      await page.goto(s.setupUrl!);
      await heading(page, "Set up your sign-in").waitFor();
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("New password").fill(PASSWORD);
      await page.getByLabel("Repeat the password").fill("something else entirely");
      await page.getByRole("button", { name: "Save and sign in" }).click();
      await page.getByText("The two passwords differ.").waitFor();
      await page.getByLabel("Repeat the password").fill(PASSWORD);
      await screenshot(page, `people-${label}-01-setup`);
      await page.getByRole("button", { name: "Save and sign in" }).click();
      await heading(page, "Brains").waitFor();
      expect(new URL(page.url()).pathname).toBe("/");
      expect(await page.evaluate(() => document.cookie)).toBe(""); // HttpOnly
      expect(await page.evaluate(() => sessionStorage.length)).toBe(0); // no key in the tab
      await page.goto(s.setupUrl!);
      await heading(page, "This link cannot be used").waitFor();
    }, T);

    test("sign out, a wrong password readably refused, then signed in with the right one", async () => {
      await page.goto(s.url);
      await heading(page, "Brains").waitFor(); // the cookie keeps the browser signed in across loads
      await page.getByRole("button", { name: "Sign out" }).click();
      await heading(page, "Sign in to Brainbox").waitFor();
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Password").fill("not the password");
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await page.getByText("That email and password do not match").waitFor();
      expect(await page.getByLabel("Password").getAttribute("aria-invalid")).toBe("true");
      await screenshot(page, `people-${label}-02-sign-in-refused`);
      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await heading(page, "Brains").waitFor();
    }, T);

    test("a citation link opens the page view; signed out, it asks for sign-in first and then shows the page", async () => {
      await page.goto(citation);
      await page.getByRole("heading", { name: "On call" }).waitFor();
      await page.getByText("The on-call rota changes every Monday.").waitFor();
      await screenshot(page, `people-${label}-03-citation`);
      const other = await browser.context.browser()?.newContext();
      const fresh = other ? await other.newPage() : null;
      if (fresh) {
        await fresh.setViewportSize({ width, height });
        await fresh.goto(citation);
        await heading(fresh, "Sign in to Brainbox").waitFor();
        await fresh.getByLabel("Email").fill(email);
        await fresh.getByLabel("Password").fill(PASSWORD);
        await fresh.getByRole("button", { name: "Sign in", exact: true }).click();
        await fresh.getByRole("heading", { name: "On call" }).waitFor();
        await other!.close();
      }
    }, T);

    test("the server admin makes a reset link for a person and deactivates them: their key stops at once", async () => {
      const sam = await newPerson(s.ctx.db, `sam-${label}@example.com`, "sams long password", `Sam ${label}`);
      await page.goto(`${s.url}/#/account`);
      await heading(page, "Plan & usage").waitFor();
      await page.getByRole("button", { name: `Reset link for Sam ${label}` }).click();
      const link = await page.getByLabel(`Reset link for Sam ${label}`, { exact: true }).and(page.locator("input")).inputValue();
      expect(link).toStartWith(`${s.url}/setup?token=bb_pl_`);
      expect((await s.api("/api/v1/brains", { key: sam.key })).status).toBe(200);
      await page.getByRole("button", { name: `Deactivate Sam ${label}` }).click();
      await page.getByRole("dialog").getByRole("button", { name: "Deactivate" }).click();
      await page.getByRole("button", { name: `Reactivate Sam ${label}` }).waitFor();
      await screenshot(page, `people-${label}-05-deactivated`);
      expect((await s.api("/api/v1/brains", { key: sam.key })).status).toBe(401);
    }, T);

    test("sign out everywhere ends this browser's session and every other one", async () => {
      const elsewhere = await fetch(`${s.url}/api/v1/session`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email, password: PASSWORD }) });
      const cookie = elsewhere.headers.get("set-cookie")!.split(";")[0]!;
      await page.goto(`${s.url}/#/account`);
      await heading(page, "Plan & usage").waitFor();
      await page.locator("dd", { hasText: email }).waitFor();
      await page.getByRole("button", { name: "Sign out everywhere" }).click();
      await page.getByRole("dialog").getByRole("button", { name: "Sign out everywhere" }).click();
      await heading(page, "Sign in to Brainbox").waitFor();
      await screenshot(page, `people-${label}-04-signed-out-everywhere`);
      expect((await fetch(`${s.url}/api/v1/brains`, { headers: { cookie } })).status).toBe(401);
      await page.reload();
      await heading(page, "Sign in to Brainbox").waitFor();
    }, T);

    test("nothing overflows the width; no script errors and no CSP violations", async () => {
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      expect(problems.filter((p) => !p.includes("Failed to load resource"))).toEqual([]);
    });
  });
}
