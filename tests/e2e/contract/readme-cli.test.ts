// The README's CLI example, run as written through npm (the CLI as a child process, on a fresh data dir).
import { describe, expect, test } from "bun:test";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../../support/cli";
import { tempDir } from "../../support/server";

const readme = readFileSync(join(ROOT, "README.md"), "utf8");
const shellLines = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)]
  .flatMap((m) => m[1]!.split("\n"))
  .concat([...readme.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!))
  .map((l) => l.trim())
  .filter(Boolean);

describe("README commands", () => {
  test("the CLI example works through npm as written: npm run -s brainbox -- keys create --name NAME", async () => {
    const dir = tempDir("brainbox-readme-");
    try {
      const line = shellLines.find((l) => l.startsWith("npm run -s brainbox -- keys create"))!;
      expect(line).toBeDefined();
      const proc = Bun.spawn(["bash", "-c", line], { cwd: ROOT, env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? dir, BRAINBOX_DATA_DIR: dir }, stdout: "pipe", stderr: "pipe" });
      const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
      expect({ code, err: code === 0 ? "" : err }).toEqual({ code: 0, err: "" });
      expect(out.trimEnd().split("\n").at(-1)).toMatch(/^bb_live_\w{20,}$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
