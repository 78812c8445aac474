// The shared last-resort cutter used by page synthesis and by answer sentences.
import { expect, test } from "bun:test";
import { hardWrap } from "../../src/lib/hard-wrap";

test("cuts at spaces within the limit, anywhere when there are none, and loses no text", () => {
  const words = Array.from({ length: 60 }, (_, i) => `word${i}`).join(" ");
  const pieces = hardWrap(words, 50);
  expect(pieces.every((p) => p.length <= 50)).toBe(true);
  expect(pieces.join(" ")).toBe(words);
  expect(hardWrap("x".repeat(120), 50)).toEqual(["x".repeat(50), "x".repeat(50), "x".repeat(20)]);
  expect(hardWrap("  short  ", 50)).toEqual(["short"]);
  expect(hardWrap("", 50)).toEqual([]);
});
