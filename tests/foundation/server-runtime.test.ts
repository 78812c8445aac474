// The server's runtime settings (src/lib/server-runtime.ts): `serve` starts itself again with them unless its
// environment gives every one; a value the environment gives is kept; other commands never start again. Real
// processes on loopback; the compiled binary's command line is checked in binary.test.ts.
import { afterAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { osArgs, serverEnvironment, serverRuntimeLine, servesHttp, SERVER_RUNTIME } from "../../src/lib/server-runtime";
import { spawnServer } from "../support/cli";
import { tempDir } from "../support/server";

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const dataDir = () => (dirs.push(tempDir()), dirs.at(-1)!);

/** A running process's environment, as the OS holds it. */
const environOf = async (pid: number) =>
  Object.fromEntries((await Bun.file(`/proc/${pid}/environ`).text()).split("\0").filter(Boolean).map((e) => [e.slice(0, e.indexOf("=")), e.slice(e.indexOf("=") + 1)]));

test("which command lines serve: serve, or no command; not help, version or another command", () => {
  expect(servesHttp([])).toBe(true);
  expect(servesHttp(["serve"])).toBe(true);
  expect(servesHttp(["--help"])).toBe(false);
  expect(servesHttp(["serve", "-h"])).toBe(false);
  expect(servesHttp(["--version"])).toBe(false);
  expect(servesHttp(["migrate"])).toBe(false);
  expect(servesHttp(["keys", "create", "--name", "x"])).toBe(false);
  expect(servesHttp(["import", "./docs", "--brain", "b1"])).toBe(false);
});

test("the command line given again: the runtime's own flags kept, a compiled binary's inner entry left out", () => {
  expect(osArgs(["/usr/bin/bun", "/app/src/main.ts", "serve"], "/usr/bin/bun", ["--smol"])).toEqual(["/usr/bin/bun", "--smol", "/app/src/main.ts", "serve"]);
  expect(osArgs(["bun", "/$bunfs/root/brainbox", "serve"], "/opt/brainbox", [])).toEqual(["/opt/brainbox", "serve"]);
  expect(osArgs(["bun", "/$bunfs/root/brainbox"], "/opt/brainbox", [])).toEqual(["/opt/brainbox"]);
});

test("the environment to start again with: the settings it lacks added, the ones it gives kept, none when it gives all", () => {
  expect(serverEnvironment({ PATH: "/bin" })).toEqual({ PATH: "/bin", ...SERVER_RUNTIME });
  expect(serverEnvironment({ MIMALLOC_PURGE_DELAY: "100" })).toEqual({ ...SERVER_RUNTIME, MIMALLOC_PURGE_DELAY: "100" });
  expect(serverEnvironment({ BUN_JSC_thresholdForFTLOptimizeSoon: "1000" })).toEqual({ ...SERVER_RUNTIME, BUN_JSC_thresholdForFTLOptimizeSoon: "1000" });
  expect(serverEnvironment({ ...SERVER_RUNTIME, MIMALLOC_PURGE_DELAY: "100" })).toBeNull();
  expect(serverRuntimeLine({ MIMALLOC_PURGE_DELAY: "100" })).toBe(
    "MIMALLOC_PURGE_DELAY=100 BUN_JSC_thresholdForFTLOptimizeAfterWarmUp=undefined BUN_JSC_thresholdForFTLOptimizeSoon=undefined",
  );
});

test("serve starts itself again (same pid) with the settings, and keeps a setting its environment gives", async () => {
  const relaunched = await spawnServer({ BRAINBOX_DATA_DIR: dataDir() });
  try {
    const environ = await environOf(relaunched.proc.pid);
    for (const [name, value] of Object.entries(SERVER_RUNTIME)) expect(environ[name]).toBe(value);
    expect((await fetch(`${relaunched.url}/api/health`)).status).toBe(200);
  } finally {
    await relaunched.stop();
  }
  // SIGTERM still reaches the server's own handler after the relaunch: a clean exit.
  expect(await relaunched.proc.exited).toBe(0);
  const given = await spawnServer({ BRAINBOX_DATA_DIR: dataDir(), MIMALLOC_PURGE_DELAY: "100" });
  try {
    const environ = await environOf(given.proc.pid);
    expect(environ.MIMALLOC_PURGE_DELAY).toBe("100");
    // the ones it lacked, added
    for (const [name, value] of Object.entries(SERVER_RUNTIME)) if (name !== "MIMALLOC_PURGE_DELAY") expect(environ[name]).toBe(value);
  } finally {
    await given.stop();
  }
});
