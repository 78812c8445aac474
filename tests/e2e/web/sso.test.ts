// Single sign-on in a real browser: the admin page's "Sign in with ‹provider›" link (web/screens/sso-button.js),
// clicked in Chromium, through the real OpenID provider on loopback (oidc-provider; its interaction signs the
// person in), back to Brainbox, landing on the admin page signed in, with a session the API accepts.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { hasChromium, launchBrowser, screenshot, SKIP_MESSAGE, type Browser } from "../../support/browser";
import type { OidcRig } from "../../support/oidc-rig";
import type { TestServer } from "../../support/server";
import { startSsoPair } from "../../people/oidc-support";

if (!hasChromium) console.warn(SKIP_MESSAGE);

let s: TestServer;
let rig: OidcRig;
let browser: Browser;
beforeAll(async () => {
  if (!hasChromium) return;
  ({ s, rig } = await startSsoPair());
  rig.users.set("kay-1", { sub: "kay-1", email: "kay@example.org", email_verified: true, name: "Kay" });
  rig.nextUser = "kay-1";
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await s?.close();
  await rig?.close();
});

test.skipIf(!hasChromium)(
  "clicking 'Sign in with Loopback ID' signs in at the provider and lands on the admin page, signed in",
  async () => {
    const { page, problems } = await browser.newPage();
    await page.goto(`${s.url}/#/keys`);
    const link = page.getByRole("link", { name: "Sign in with Loopback ID" });
    await link.waitFor();
    await Promise.all([page.waitForURL(`${s.url}/#/keys`), link.click()]);
    // Back where the person started (returnTo), signed in by the session cookie: the screen, not the sign-in.
    await page.getByRole("heading", { name: "API keys", level: 1 }).waitFor();
    expect(await page.getByRole("heading", { name: "Sign in to Brainbox" }).count()).toBe(0);
    const who = await page.evaluate(async () => (await fetch("/api/v1/session")).json());
    expect(who).toMatchObject({ via: "session", person: { email: "kay@example.org", name: "Kay" }, session: { method: "oidc" } });
    const cookies = await browser.context.cookies(s.url);
    const session = cookies.find((c) => c.name === "bb_session")!;
    expect(session).toMatchObject({ httpOnly: true, sameSite: "Lax" });
    expect(cookies.some((c) => c.name === "bb_sso")).toBe(false);
    await screenshot(page, "sso-signed-in");
    // The signed-out page's probe of its session cookie is a 401 the browser logs; nothing else may appear.
    expect(problems.filter((p) => !p.includes("Failed to load resource"))).toEqual([]);
  },
  60_000,
);
