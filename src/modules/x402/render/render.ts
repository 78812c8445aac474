// Layout to pixels with maintained libraries: satori lays out a small HTML/CSS tree and writes SVG with the
// text as paths (fonts.ts, cjk.ts); resvg (WebAssembly, embedded as a file, started once) rasterises it.
import { initWasm, Resvg } from "@resvg/resvg-wasm";
import satori from "satori";
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

let wasmReady: Promise<void> | undefined;

function startResvg(): Promise<void> {
  wasmReady ??= Bun.file(resvgWasm)
    .arrayBuffer()
    .then((bytes) => initWasm(bytes));
  return wasmReady;
}

export async function toSvg(root: Node, width: number, height: number): Promise<string> {
  const fonts = await baseFonts();
  return satori(root as never, {
    width,
    height,
    fonts,
    // Called with the text no loaded font can draw: CJK slices for it, nothing for other scripts (emoji...).
    loadAdditionalAsset: async (_language, segment) => cjkFontsFor(segment),
  });
}

function rasterise<T>(svg: string, read: (image: { width: number; height: number; pixels: Uint8Array; asPng(): Uint8Array }) => T): T {
  const resvg = new Resvg(svg, { font: { loadSystemFonts: false } });
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
  await startResvg();
  return rasterise(svg, (image) => Buffer.from(image.asPng()));
}

export async function renderRgba(root: Node, width: number, height: number): Promise<Raster> {
  const svg = await toSvg(root, width, height);
  await startResvg();
  return rasterise(svg, (image) => ({ width: image.width, height: image.height, pixels: image.pixels }));
}

export { FAMILY };
