// Drives Debian's Chromium with playwright-core (which never downloads a browser) for the admin page tests.
// Tests skip cleanly, with a message, when /usr/bin/chromium is absent; CI installs it (.ci/run).
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext, type ConsoleMessage, type Page } from "playwright-core";

export const CHROMIUM_PATH = "/usr/bin/chromium";
export const hasChromium = existsSync(CHROMIUM_PATH);
export const SKIP_MESSAGE = `admin page browser tests skipped: ${CHROMIUM_PATH} not found (install it with: apt-get install -y chromium)`;

/** Screenshots of the main screens land here (git-ignored); look at them after a change to the page. */
export const ARTIFACTS_DIR = join(import.meta.dir, "..", "..", "test-artifacts", "web");

const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export interface Browser {
  context: BrowserContext;
  /** A new tab whose console errors, page errors and dialogs are recorded in `problems`. */
  newPage(opts?: { width?: number; height?: number }): Promise<WatchedPage>;
  close(): Promise<void>;
}

export interface WatchedPage {
  page: Page;
  /** Console errors (CSP violations show up here), uncaught exceptions and unexpected dialogs. */
  problems: string[];
}

/** Launches Chromium headless with a fresh profile directory (removed on close). */
export async function launchBrowser(): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), "brainbox-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ARGS,
    viewport: { width: 1280, height: 860 },
    locale: "en-GB",
    timezoneId: "UTC",
  });
  context.setDefaultTimeout(15_000);
  return {
    context,
    async newPage({ width = 1280, height = 860 } = {}) {
      const page = await context.newPage();
      await page.setViewportSize({ width, height });
      const problems: string[] = [];
      page.on("console", (m: ConsoleMessage) => {
        if (m.type() === "error") problems.push(`console: ${m.text()}`);
      });
      page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
      page.on("dialog", (d) => {
        problems.push(`dialog: ${d.type()} ${d.message()}`);
        void d.dismiss();
      });
      return { page, problems };
    },
    async close() {
      await context.close().catch(() => undefined);
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Saves a full-page screenshot as test-artifacts/web/<name>.png and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const path = join(ARTIFACTS_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}
