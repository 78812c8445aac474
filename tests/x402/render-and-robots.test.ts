// The in-project encoders and parsers behind the app actions, checked against independent readers.
import { describe, expect, test } from "bun:test";
import { inflateSync } from "node:zlib";
import fc from "fast-check";
import { isAllowed, parseRobots } from "../../src/modules/x402/actions/robots";
import { IndexedCanvas, wrapText } from "../../src/modules/x402/render/canvas";
import { toDrawable } from "../../src/modules/x402/render/font";
import { encodeGif } from "../../src/modules/x402/render/gif";
import { crc32, encodePng } from "../../src/modules/x402/render/png";
import { decodeGif } from "./support/gif-decode";

describe("GIF encoder", () => {
  test("round-trips through an independent LZW decoder: any size, palette and content", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 2, max: 256 }),
        fc.integer({ min: 1, max: 3 }),
        fc.boolean(),
        (w, h, colors, frameCount, noisy) => {
          const palette = Array.from({ length: colors }, (_, i) => [i, 255 - i, i >> 1] as [number, number, number]);
          const frames = Array.from({ length: frameCount }, (_, k) => ({
            pixels: Uint8Array.from({ length: w * h }, (_, i) => (noisy ? Math.floor(Math.random() * colors) : ((i >> 3) + k) % colors)),
            delayCs: 10 + k,
          }));
          const gif = decodeGif(encodeGif(w, h, palette, frames));
          expect(gif.frames.map((f) => [...f.pixels])).toEqual(frames.map((f) => [...f.pixels]));
          expect(gif.frames.map((f) => f.delayCs)).toEqual(frames.map((f) => f.delayCs));
        },
      ),
      { numRuns: 300 },
    );
  });

  test("a frame that fills the 4096-entry table (clear codes mid-stream) still round-trips", () => {
    const pixels = Uint8Array.from({ length: 320 * 240 }, () => Math.floor(Math.random() * 256));
    const palette = Array.from({ length: 256 }, (_, i) => [i, i, i] as [number, number, number]);
    expect([...decodeGif(encodeGif(320, 240, palette, [{ pixels, delayCs: 5 }])).frames[0]!.pixels]).toEqual([...pixels]);
  });
});

describe("PNG encoder", () => {
  test("chunks carry valid CRCs and the pixels inflate back", () => {
    const canvas = new IndexedCanvas(17, 5, [[0, 0, 0], [255, 255, 255]]);
    canvas.rect(2, 1, 10, 3, 1);
    const png = encodePng(canvas);
    let at = 8;
    while (at < png.length) {
      const length = png.readUInt32BE(at);
      const crc = (crc32(png.subarray(at + 4, at + 8 + length)) ^ 0xffffffff) >>> 0;
      expect(png.readUInt32BE(at + 8 + length)).toBe(crc);
      if (png.toString("latin1", at + 4, at + 8) === "IDAT") {
        const raw = inflateSync(png.subarray(at + 8, at + 8 + length));
        expect(raw[1 * 18 + 1 + 2]).toBe(1); // row 1, x 2: inside the rectangle
        expect(raw[0 * 18 + 1 + 2]).toBe(0);
      }
      at += 12 + length;
    }
    expect(crc32(Buffer.from("123456789")) ^ 0xffffffff).toBe(0xcbf43926 | 0); // the CRC-32 check value
  });
});

describe("text", () => {
  test("accents are dropped, typography mapped, the rest becomes ?", () => {
    expect(toDrawable("Déjà vu — “quotes” … 東京")).toBe('Deja vu - "quotes" ... ??');
  });

  test("wrapping keeps to the width and ends an overflow with ...", () => {
    const lines = wrapText("one two three four five six seven eight nine ten", 6 * 10 - 1, 1, 2);
    expect(lines).toEqual(["one two", "three f..."]);
    expect(wrapText("supercalifragilistic", 6 * 5 - 1, 1, 9)).toEqual(["super", "calif", "ragil", "istic"]);
  });
});

describe("robots.txt", () => {
  const robots = parseRobots(`
User-agent: GPTBot
User-agent: CCBot
Disallow: /

User-agent: ClaudeBot
Disallow: /private
Allow: /private/open$

User-agent: *
Disallow: /tmp/*.html
Sitemap: https://example.test/sitemap.xml
`);

  test("a crawler uses its own group, else the * group", () => {
    expect(isAllowed(robots, "GPTBot", "/").allowed).toBe(false);
    expect(isAllowed(robots, "ccbot", "/docs").allowed).toBe(false);
    expect(isAllowed(robots, "PerplexityBot", "/docs").allowed).toBe(true);
    expect(isAllowed(robots, "PerplexityBot", "/tmp/x.html")).toEqual({ allowed: false, rule: "Disallow: /tmp/*.html", group: "*" });
  });

  test("the longest rule wins, `$` anchors, and no robots.txt allows everything", () => {
    expect(isAllowed(robots, "ClaudeBot", "/private/x").allowed).toBe(false);
    expect(isAllowed(robots, "ClaudeBot", "/private/open").allowed).toBe(true);
    expect(isAllowed(robots, "ClaudeBot", "/private/open/more").allowed).toBe(false);
    expect(isAllowed(robots, "ClaudeBot", "/tmp/x.html").allowed).toBe(true); // its own group has no such rule
    expect(isAllowed(parseRobots(""), "GPTBot", "/").allowed).toBe(true);
  });
});
