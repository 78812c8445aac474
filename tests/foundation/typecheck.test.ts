// The whole project (src, scripts, tests) type-checks: `bun test` runs TypeScript without checking types, so
// a wrong type in a test or a script would otherwise only show in an editor.
import { expect, test } from "bun:test";
import { join } from "node:path";

test("tsc --noEmit finds no type errors", async () => {
  const root = join(import.meta.dir, "../..");
  const tsc = Bun.spawn([process.execPath, join(root, "node_modules/typescript/bin/tsc"), "--noEmit", "-p", root], { cwd: root, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(tsc.stdout).text(), new Response(tsc.stderr).text(), tsc.exited]);
  expect(`${out}${err}`.trim()).toBe("");
  expect(code).toBe(0);
}, 120_000);
