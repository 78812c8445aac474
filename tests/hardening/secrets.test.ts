// Secret handling: constant-time comparison everywhere a secret is checked, and only hashes at rest.
import { describe, expect, spyOn, test } from "bun:test";
import * as crypto from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { safeEqual } from "../../src/lib/secrets";

describe("safeEqual", () => {
  test("compares by value, including different lengths and unicode", () => {
    expect(safeEqual("bb_live_abc", "bb_live_abc")).toBe(true);
    expect(safeEqual("bb_live_abc", "bb_live_abd")).toBe(false);
    expect(safeEqual("short", "longer value")).toBe(false);
    expect(safeEqual("", "")).toBe(true);
    expect(safeEqual("é", "e\u0301")).toBe(false);
  });

  test("always goes through crypto.timingSafeEqual, also when lengths differ", () => {
    const spy = spyOn(crypto, "timingSafeEqual");
    safeEqual("a".repeat(64), "b".repeat(64));
    safeEqual("a", "b".repeat(64));
    expect(spy).toHaveBeenCalledTimes(2);
    spy.mockRestore();
  });
});

test("no secret comparison in src/ uses === on a hash, mac, key or token", () => {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (path.endsWith(".ts")) files.push(path);
    }
  };
  walk(join(import.meta.dir, "../../src"));
  const suspicious = files.flatMap((file) =>
    readFileSync(file, "utf8")
      .split("\n")
      .map((line, i) => ({ file, line: i + 1, text: line }))
      .filter(({ text }) => /\b(hash|mac|signature|secret|token)\w*\s*[!=]==\s*\w*(hash|mac|signature|secret|token)/i.test(text) && !text.trim().startsWith("//")),
  );
  expect(suspicious).toEqual([]);
});
