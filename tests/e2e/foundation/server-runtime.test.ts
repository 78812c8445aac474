// `serve` runs on the runtime's own defaults: it never starts itself again with engine settings of its own
// (JavaScriptCore's BUN_JSC_*, the allocator's MIMALLOC_*); an operator's setting reaches it untouched. A real
// process on loopback; what the OS holds as its environment and command line is the evidence.
import { afterAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { BUN, ROOT, spawnServer } from "../../support/cli";
import { tempDir } from "../../support/server";

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const dataDir = () => (dirs.push(tempDir()), dirs.at(-1)!);

/** A running process's environment, as the OS holds it. */
const environOf = async (pid: number) =>
  Object.fromEntries((await Bun.file(`/proc/${pid}/environ`).text()).split("\0").filter(Boolean).map((e) => [e.slice(0, e.indexOf("=")), e.slice(e.indexOf("=") + 1)]));
const engineSettings = (environ: Record<string, string>) => Object.keys(environ).filter((name) => name.startsWith("BUN_JSC_") || name.startsWith("MIMALLOC_"));

test("serve adds no engine setting to its environment and keeps the command line it was given", async () => {
  const server = await spawnServer({ BRAINBOX_DATA_DIR: dataDir() });
  try {
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
    expect(engineSettings(await environOf(server.proc.pid))).toEqual([]);
    const cmdline = (await Bun.file(`/proc/${server.proc.pid}/cmdline`).text()).split("\0").filter(Boolean);
    expect(cmdline).toEqual([BUN, join(ROOT, "src/main.ts"), "serve"]);
  } finally {
    await server.stop();
  }
  expect(await server.proc.exited).toBe(0);
});

test("an engine setting the operator gives reaches serve as given, and nothing is added beside it", async () => {
  const server = await spawnServer({ BRAINBOX_DATA_DIR: dataDir(), MIMALLOC_PURGE_DELAY: "100" });
  try {
    const environ = await environOf(server.proc.pid);
    expect(engineSettings(environ)).toEqual(["MIMALLOC_PURGE_DELAY"]);
    expect(environ.MIMALLOC_PURGE_DELAY).toBe("100");
    expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
  } finally {
    await server.stop();
  }
});
