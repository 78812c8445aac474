// Temp dirs for tests: every one made here is removed once the whole run ends (tests/support/preload.ts),
// also when its test failed before cleaning up or never did (a killed child's data dir, a worker file).
// Bun's test runner fires no process "exit" event, hence the global afterAll.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const made = new Set<string>();

export function tempDir(prefix = "brainbox-test-"): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.add(dir);
  return dir;
}

export function removeTempDirs(): void {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
  made.clear();
}
