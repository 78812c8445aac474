// The signed-in consent in a real browser (Debian's Chromium): the admin origin signs in (POST
// /api/v1/web-session), a host on another site sends the browser to /oauth/authorize, the SameSite=Strict
// cookie is withheld on that cross-site navigation, the page reloads itself same-origin and shows who is
// signed in; Allow goes back to the host with a code. After sign-out the key form is back.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { hasChromium, launchBrowser, SKIP_MESSAGE, type Browser } from "../../support/browser";
import { newAccountKey } from "../../support/accounts";
import { expectJson, startTestServer, type TestServer } from "../../support/server";
import { pkcePair, postForm } from "../../oauth/support";

if (!hasChromium) console.warn(SKIP_MESSAGE);

let s: TestServer;
let host: ReturnType<typeof Bun.serve>;
let browser: Browser;
let hostOrigin: string;
let authorizeHref = "";

beforeAll(async () => {
  if (!hasChromium) return;
  s = await startTestServer({ BRAINBOX_AUTH_FAILURES_PER_MINUTE: "1000" });
  // The "MCP host": another site (localhost is not the same site as 127.0.0.1), with a Connect link.
  host = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const url = new URL(req.url);
      if (url.pathname === "/callback") return new Response(`<!doctype html><title>back</title><p id="done">${url.search.length > 0 ? "ok" : ""}</p>`, { headers: { "content-type": "text/html" } });
      return new Response(`<!doctype html><title>host</title><a id="connect" href="${authorizeHref.replace(/&/g, "&amp;")}">Connect Brainbox</a>`, { headers: { "content-type": "text/html" } });
    },
  });
  hostOrigin = `http://localhost:${host.port}`;
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  host?.stop(true);
  await s?.close();
});

describe.skipIf(!hasChromium)("consent in the browser with a web session", () => {
  test("cross-site navigation → same-origin reload → signed in → Allow → back to the host with a code", async () => {
    const redirectUri = `${hostOrigin}/callback`;
    const reg = await fetch(`${s.url}/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ client_name: "Browser host", redirect_uris: [redirectUri], token_endpoint_auth_method: "none" }),
    });
    const clientId = (await expectJson(reg, 201)).client_id;
    const { verifier, challenge } = pkcePair();
    const url = new URL(`${s.url}/oauth/authorize`);
    for (const [k, v] of Object.entries({ response_type: "code", client_id: clientId, redirect_uri: redirectUri, code_challenge: challenge, code_challenge_method: "S256", state: "b1" }))
      url.searchParams.set(k, v);
    authorizeHref = url.href;

    const { page, problems } = await browser.newPage();
    const missing: string[] = [];
    page.on("response", (r) => void (r.status() === 404 && missing.push(new URL(r.url()).pathname)));
    // The admin page's sign-in, from its own origin.
    await page.goto(`${s.url}/api/health`);
    const status = await page.evaluate(async (key) => (await fetch("/api/v1/web-session", { method: "POST", headers: { authorization: `Bearer ${key}` } })).status, s.key);
    expect(status).toBe(204);
    expect(await page.evaluate(() => document.cookie)).toBe(""); // HttpOnly: no script reads it

    // Another site cannot plant its own session (login CSRF): the bearer forces a preflight, and CORS never
    // allows credentials, so the browser never sends the sign-in.
    const attackerKey = await newAccountKey(s.ctx.db, "Attacker");
    await page.goto(`${hostOrigin}/`);
    const before = problems.length;
    await page.evaluate(async ([base, key]) => {
      await fetch(`${base}/api/v1/web-session`, { method: "POST", credentials: "include", headers: { authorization: `Bearer ${key}` } }).catch(() => undefined);
    }, [s.url, attackerKey] as const);
    expect(problems.splice(before).some((m) => m.includes("blocked by CORS policy"))).toBe(true);
    const planted = await s.ctx.database.client.execute({ sql: "SELECT count(*) AS n FROM web_sessions w JOIN accounts a ON a.id = w.account_id WHERE a.name = 'Attacker'", args: [] });
    expect(Number(planted.rows[0]!.n)).toBe(0);
    await page.click("#connect");
    await page.waitForSelector("text=Signed in as");
    expect(await page.textContent(".signed-in")).toContain("Owner");
    expect(await page.textContent(".signed-in")).not.toContain("Attacker");
    await page.click("button:has-text('Allow')");
    await page.waitForURL((u) => u.pathname === "/callback");
    const back = new URL(page.url());
    expect(back.origin).toBe(hostOrigin);
    expect(back.searchParams.get("state")).toBe("b1");
    const tokens = await expectJson(await postForm(s.url, "/oauth/token", { grant_type: "authorization_code", code: back.searchParams.get("code")!, redirect_uri: redirectUri, code_verifier: verifier, client_id: clientId }), 200);
    expect((await expectJson(await s.api("/api/v1/account", { key: tokens.access_token }), 200)).account.name).toBe("Owner");

    // Sign out on the admin origin: the consent page asks for a key again.
    await page.goto(`${s.url}/api/health`);
    expect(await page.evaluate(async () => (await fetch("/api/v1/web-session", { method: "DELETE" })).status)).toBe(204);
    await page.goto(`${hostOrigin}/`);
    await page.click("#connect");
    await page.waitForSelector("#api_key");
    expect(await page.locator(".signed-in").count()).toBe(0);
    // It reloaded once and stopped: the page now shown is the same-origin one, without the reload.
    await page.waitForLoadState("load");
    await Bun.sleep(500);
    expect(await page.locator('meta[http-equiv="refresh"]').count()).toBe(0);
    // No CSP violation or page error; the only 404s are the browser's own favicon requests.
    expect(missing.every((p) => p === "/favicon.ico")).toBe(true);
    expect(problems.filter((p) => !p.includes("status of 404"))).toEqual([]);
  });
});
