// The compiled executable, copied alone into an empty folder (no node_modules anywhere above it).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { copyFileSync, existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { BUN, lastLine, ROOT, runCli, spawnServer } from "../support/cli";
import { tempDir } from "../support/server";

const dir = tempDir("brainbox-lone-");
const binary = join(dir, "brainbox");

beforeAll(async () => {
  const build = await runCli([join(ROOT, "scripts/build-binary.ts"), join(dir, "build/brainbox")], {}, [BUN]);
  if (build.code !== 0) throw new Error(build.stderr + build.stdout);
  copyFileSync(join(dir, "build/brainbox"), binary);
  rmSync(join(dir, "build"), { recursive: true, force: true });
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("the lone binary serves, creates a key and lists brains", async () => {
  expect(existsSync(join(dir, "..", "node_modules"))).toBe(false);
  const env = { BRAINBOX_DATA_DIR: join(dir, "data") };
  const created = await runCli(["keys", "create", "--name", "lone"], env, [binary]);
  expect(created.code).toBe(0);
  const key = lastLine(created.stdout);
  const server = await spawnServer(env, [binary]);
  try {
    const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
    const made = await fetch(`${server.url}/api/v1/brains`, { method: "POST", headers, body: JSON.stringify({ name: "Lone" }) });
    expect(made.status).toBe(201);
    const list = (await (await fetch(`${server.url}/api/v1/brains`, { headers })).json()) as any;
    expect(list.brains.map((b: any) => b.name)).toEqual(["Lone"]);
    const docs = await fetch(`${server.url}/swagger/assets/swagger-ui-bundle.js`);
    expect(docs.status).toBe(200);
    const page = await fetch(`${server.url}/`);
    expect(await page.text()).toContain("Brainbox");
  } finally {
    await server.stop();
  }
}, 60_000);
