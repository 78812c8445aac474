// Layout to pixels with maintained libraries: satori lays out a small HTML/CSS tree and writes SVG with the
// text as paths (fonts.ts, cjk.ts); resvg (WebAssembly, embedded as a file, started once) rasterises it.
// Both load on the first render, not at start: a server that never draws an image does not pay their memory.
import type { Resvg } from "@resvg/resvg-wasm";
import resvgWasm from "../../../../node_modules/@resvg/resvg-wasm/index_bg.wasm" with { type: "file" };
import { cjkFontsFor } from "./cjk";
import { baseFonts, FAMILY } from "./fonts";

/** A satori element: the shape React elements have, written as plain objects. */
export interface Node {
  type: string;
  props: { style?: Record<string, string | number>; children?: Array<Node | string> | Node | string };
}

export function el(type: string, style: Record<string, string | number>, ...children: Array<Node | string>): Node {
  return { type, props: { style, children } };
}

export interface Raster {
  width: number;
  height: number;
  /** RGBA, 4 bytes per pixel, row after row. */
  pixels: Uint8Array;
}

let resvgReady: Promise<typeof Resvg> | undefined;

function startResvg(): Promise<typeof Resvg> {
  resvgReady ??= (async () => {
    const { initWasm, Resvg } = await import("@resvg/resvg-wasm");
    await initWasm(await Bun.file(resvgWasm).arrayBuffer());
    return Resvg;
  })();
  return resvgReady;
}

export async function toSvg(root: Node, width: number, height: number): Promise<string> {
  const [{ default: satori }, fonts] = await Promise.all([import("satori"), baseFonts()]);
  return satori(root as never, {
    width,
    height,
    fonts,
    // Called with the text no loaded font can draw: CJK slices for it, nothing for other scripts (emoji...).
    loadAdditionalAsset: async (_language, segment) => cjkFontsFor(segment),
  });
}

function rasterise<T>(Renderer: typeof Resvg, svg: string, read: (image: { width: number; height: number; pixels: Uint8Array; asPng(): Uint8Array }) => T): T {
  const resvg = new Renderer(svg, { font: { loadSystemFonts: false } });
  try {
    const image = resvg.render();
    try {
      return read(image);
    } finally {
      image.free();
    }
  } finally {
    resvg.free();
  }
}

export async function renderPng(root: Node, width: number, height: number): Promise<Buffer> {
  const svg = await toSvg(root, width, height);
  return rasterise(await startResvg(), svg, (image) => Buffer.from(image.asPng()));
}

export async function renderRgba(root: Node, width: number, height: number): Promise<Raster> {
  const svg = await toSvg(root, width, height);
  return rasterise(await startResvg(), svg, (image) => ({ width: image.width, height: image.height, pixels: image.pixels }));
}

export { FAMILY };
