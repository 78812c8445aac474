// The server's allocator setting (src/lib/allocator.ts): `serve` starts itself again with purging off unless
// its environment sets MIMALLOC_PURGE_DELAY; other commands never do. Real processes on loopback; the
// compiled binary's command line is checked in binary.test.ts.
import { afterAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { osArgs, servesHttp, SERVER_PURGE_DELAY } from "../../src/lib/allocator";
import { spawnServer } from "../support/cli";
import { tempDir } from "../support/server";

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const dataDir = () => (dirs.push(tempDir()), dirs.at(-1)!);

/** The allocator variable in a running process's environment, as the OS holds it. */
const purgeDelayOf = async (pid: number) =>
  (await Bun.file(`/proc/${pid}/environ`).text()).split("\0").find((e) => e.startsWith("MIMALLOC_PURGE_DELAY="))?.split("=")[1];

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

test("serve starts itself again (same pid) with purging off, and keeps a setting its environment gives", async () => {
  const relaunched = await spawnServer({ BRAINBOX_DATA_DIR: dataDir() });
  try {
    expect(await purgeDelayOf(relaunched.proc.pid)).toBe(SERVER_PURGE_DELAY);
    expect((await fetch(`${relaunched.url}/api/health`)).status).toBe(200);
  } finally {
    await relaunched.stop();
  }
  // SIGTERM still reaches the server's own handler after the relaunch: a clean exit.
  expect(await relaunched.proc.exited).toBe(0);
  const given = await spawnServer({ BRAINBOX_DATA_DIR: dataDir(), MIMALLOC_PURGE_DELAY: "100" });
  try {
    expect(await purgeDelayOf(given.proc.pid)).toBe("100");
  } finally {
    await given.stop();
  }
});
