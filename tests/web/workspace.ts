// Shared setup of the admin page's browser tests that need a brain ready to use: a real server, a brain with
// a text source and a note (linked to each other), Chromium signed in with the owner's key.
import type { Page } from "playwright-core";
import { launchBrowser, type Browser, type WatchedPage } from "../support/browser";
import { expectJson, startTestServer, type TestServer } from "../support/server";
import { addText, waitForSource } from "../support/sources";

export const QUESTION = "When were tidal barrages first built in France?";

/** A route exists unless the server answers route_not_found (a missing brain is a plain not_found). */
export async function hasRoute(s: TestServer, method: string, path: string): Promise<boolean> {
  const res = await s.api(path, { method, json: method === "GET" ? undefined : {} });
  const body = (await res.json().catch(() => null)) as any;
  return !(res.status === 404 && body?.error?.code === "route_not_found");
}

export interface Workspace {
  server: TestServer;
  browser: Browser;
  w: WatchedPage;
  page: Page;
  brainId: string;
  /** Opens a hash route in the page (the page re-renders on hashchange). */
  goto(hash: string): Promise<void>;
  close(): Promise<void>;
}

/** Signs a tab in with `key` by putting it where the page keeps it, then opens `hash`. */
export async function signedIn(page: Page, url: string, key: string, hash = "#/") {
  await page.goto(url);
  await page.evaluate((k) => sessionStorage.setItem("brainbox.apiKey", k), key);
  await page.evaluate((h) => (location.hash = h), hash);
  await page.reload();
}

export async function startWorkspace(env: Record<string, string> = {}): Promise<Workspace> {
  const server = await startTestServer(env);
  const { brain } = await expectJson(await server.api("/api/v1/brains", { method: "POST", json: { name: "Tidal energy", visibility: "public" } }), 201);
  const text = await addText(
    server,
    brain.id,
    "Tidal barrages",
    "Tidal barrages were first built in France in 1966 at La Rance. A barrage holds water behind a dam at high tide and releases it through turbines.\n\nThe La Rance station produces about 240 megawatts at peak.",
    { sourceUrl: "https://example.com/tides" },
  );
  const note = await addText(server, brain.id, "Glossary", "# Glossary\n\n- **Barrage**: a dam across an estuary. See [[tidal-barrages]].\n- **Ebb**: the outgoing tide.", { mode: "note" });
  for (const s of [text, note]) await waitForSource(server, brain.id, s.source.id);
  const browser = await launchBrowser();
  const w = await browser.newPage();
  await signedIn(w.page, server.url, server.key);
  await w.page.getByRole("heading", { level: 1, name: "Brains" }).waitFor();
  return {
    server,
    browser,
    w,
    page: w.page,
    brainId: brain.id,
    goto: async (hash) => {
      await w.page.evaluate((h) => (location.hash = h), hash);
    },
    async close() {
      await browser.close();
      await server.close();
    },
  };
}
