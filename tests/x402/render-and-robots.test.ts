// The image stack behind the app actions (satori + resvg + gifenc, Noto fonts), read back by independent
// decoders (pngjs, the test GIF decoder), and the robots.txt parser.
import { describe, expect, test } from "bun:test";
import { PNG } from "pngjs";
import { renderClip } from "../../src/modules/x402/actions/clips";
import { isAllowed, parseRobots } from "../../src/modules/x402/actions/robots";
import { renderCardPng } from "../../src/modules/x402/actions/social-image";
import { encodeGif } from "../../src/modules/x402/render/gif";
import { el, FAMILY, renderPng, renderRgba, type Raster } from "../../src/modules/x402/render/render";
import { fitFontSize } from "../../src/modules/x402/render/text";
import { decodeGif } from "./support/gif-decode";

const BACKGROUND = "#000000";

/** One line of white text on black, decoded back from the PNG. */
async function drawn(text: string): Promise<PNG> {
  const root = el("div", { display: "flex", width: "100%", height: "100%", padding: 8, boxSizing: "border-box", background: BACKGROUND, color: "#ffffff", fontFamily: FAMILY, fontSize: 32 }, text);
  return PNG.sync.read(await renderPng(root, 320, 64));
}

const litPixels = (png: PNG) => {
  let lit = 0;
  for (let i = 0; i < png.data.length; i += 4) if (png.data[i]! > 96) lit++;
  return lit;
};

describe("text in every script", () => {
  // Pairs of words of equal length in one script: a missing glyph is drawn as the same box whatever the
  // character, so two such words would give the same image; real glyphs give different ones.
  const PAIRS: Record<string, [string, string]> = {
    latin: ["answers", "sources"],
    "latin accents": ["café déjà", "Ærø Ōsaka"],
    cyrillic: ["Привет", "Ответы"],
    greek: ["κόσμε", "γνώση"],
    chinese: ["你好世界", "知识问答"],
    japanese: ["カタカナ", "ひらがな"],
    arabic: ["مرحبا", "معرفة"],
  };

  for (const [script, [a, b]] of Object.entries(PAIRS)) {
    test(`${script}: glyphs are drawn, and different words give different images`, async () => {
      const [first, second] = [await drawn(a), await drawn(b)];
      expect([first.width, first.height]).toEqual([320, 64]);
      expect(litPixels(first)).toBeGreaterThan(150);
      expect(litPixels(second)).toBeGreaterThan(150);
      expect(first.data.equals(second.data)).toBe(false);
    });
  }

  test("the check above catches a missing font: characters no font has come out identical", async () => {
    const [first, second] = [await drawn("\uE000\uE001\uE002"), await drawn("\uE003\uE004\uE005")];
    expect(first.data.equals(second.data)).toBe(true);
  });

  test("a share card draws a CJK and Arabic title differently from question marks", async () => {
    const card = (title: string) => renderCardPng({ title, text: "Ελληνικά, русский", footer: "Brainbox", width: 400, height: 210, theme: "dark" });
    const [cjk, marks] = [PNG.sync.read(await card("知识库 مرحبا")), PNG.sync.read(await card("??? ?????"))];
    expect([cjk.width, cjk.height]).toEqual([400, 210]);
    expect(cjk.data.equals(marks.data)).toBe(false);
  });
});

describe("sizing", () => {
  test("a longer title gets a smaller size, never below the minimum; CJK counts as wide", () => {
    const short = fitFontSize("Brainbox", 1000, 3, 70, 12);
    const long = fitFontSize("word ".repeat(80), 1000, 3, 70, 12);
    expect(short).toBe(70);
    expect(long).toBeLessThan(short);
    expect(fitFontSize("word ".repeat(5000), 1000, 3, 70, 12)).toBe(12);
    expect(fitFontSize("知".repeat(60), 1000, 3, 70, 12)).toBeLessThan(fitFontSize("a".repeat(60), 1000, 3, 70, 12));
  });
});

describe("GIF", () => {
  const solid = (width: number, height: number, rgb: [number, number, number]): Raster => {
    const pixels = new Uint8Array(width * height * 4);
    for (let i = 0; i < pixels.length; i += 4) pixels.set([...rgb, 255], i);
    return { width, height, pixels };
  };

  test("frames of flat colours come back exact through an independent decoder, with their delays, looping", () => {
    const frames = [solid(7, 5, [255, 0, 0]), solid(7, 5, [0, 128, 255]), solid(7, 5, [16, 16, 16])].map((raster, i) => ({ raster, delayCs: 10 + i }));
    const gif = decodeGif(encodeGif(frames, frames.map((f) => f.raster)));
    expect(gif).toMatchObject({ width: 7, height: 5, loops: true });
    expect(gif.frames.map((f) => f.delayCs)).toEqual([10, 11, 12]);
    const colours = gif.frames.map((f) => [...new Set(f.pixels)].map((i) => gif.palette[i]));
    expect(colours).toEqual([[[255, 0, 0]], [[0, 128, 255]], [[16, 16, 16]]]);
  });

  test("a frame of another size is refused", () => {
    const frames = [solid(4, 4, [0, 0, 0]), solid(5, 4, [0, 0, 0])].map((raster) => ({ raster, delayCs: 10 }));
    expect(() => encodeGif(frames, [frames[0]!.raster])).toThrow(RangeError);
  });

  test("a clip of a Chinese quote types it out character by character: every frame differs", async () => {
    const clip = await renderClip({ title: "玄武岩", quotes: ["玄武岩柱状节理在冷却时形成"], frames: 4, width: 240, height: 135 });
    const gif = decodeGif(clip.gif);
    expect(gif.frames).toHaveLength(4);
    expect(new Set(gif.frames.map((f) => Buffer.from(f.pixels).toString("base64"))).size).toBe(4);
    const raster = await renderRgba(el("div", { display: "flex", width: "100%", height: "100%", background: "#123456" }), 10, 10);
    expect([...raster.pixels.subarray(0, 4)]).toEqual([0x12, 0x34, 0x56, 255]);
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
