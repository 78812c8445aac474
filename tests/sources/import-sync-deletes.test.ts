// Which files `brainbox import --sync` removes: those an earlier import of the folder sent and that are no
// longer found, never any below a folder that could not be read this time (its files only look absent).
// The whole CLI is tested in tests/e2e/sources/import-sync.test.ts; a folder that cannot be read cannot be
// made there when the tests run as root (root reads a mode-000 folder), so the rule is checked here.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { ImportState } from "../../src/import/state";
import { vanished } from "../../src/import/sync-deletes";
import { tempDir } from "../support/server";

const stateWith = (files: string[]) => {
  const state = new ImportState(join(tempDir(), "state.json"));
  for (const f of files) state.record(f, "hash");
  state.save();
  return new ImportState(state.file);
};

describe("import --sync: the files to remove", () => {
  test("recorded before and not found now", () => {
    const state = stateWith(["a.md", "guides/b.txt", "guides/c.txt"]);
    expect(vanished(state, new Set(["a.md", "guides", "guides/c.txt"]), [])).toEqual(["guides/b.txt"]);
    expect(vanished(state, new Set(["a.md", "guides", "guides/b.txt", "guides/c.txt"]), [])).toEqual([]);
  });

  test("nothing below a folder that could not be read, nor anything when the top could not be read", () => {
    const state = stateWith(["a.md", "guides/b.txt", "guides/deep/c.txt", "guidebook.md"]);
    expect(vanished(state, new Set(["guides"]), ["guides"])).toEqual(["a.md", "guidebook.md"]);
    expect(vanished(state, new Set(), ["."])).toEqual([]);
  });

  test("a forgotten file is not removed twice", () => {
    const state = stateWith(["a.md", "b.md"]);
    state.forget("b.md");
    expect(vanished(state, new Set(), [])).toEqual(["a.md"]);
  });
});
