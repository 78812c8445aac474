// Frames (RGBA rasters) to one looping GIF with gifenc: a single palette quantised from the given sample
// frames, shared by every frame, so colours do not flicker between them.
import { applyPalette, GIFEncoder, quantize } from "gifenc";
import type { Raster } from "./render";

export interface GifFrame {
  raster: Raster;
  /** Hundredths of a second. */
  delayCs: number;
}

/** Quantising costs in proportion to the pixels it sees; flat layouts need no more than this many. */
const SAMPLE_PIXELS = 1 << 16;

/** Every n-th pixel of the rasters, n chosen to keep near SAMPLE_PIXELS in all. */
function samplePixels(rasters: Raster[]): Uint8Array {
  const total = rasters.reduce((n, r) => n + r.pixels.length / 4, 0);
  const step = Math.max(1, Math.floor(total / SAMPLE_PIXELS));
  const out = new Uint8Array(Math.ceil(total / step) * 4 + 4 * rasters.length);
  let at = 0;
  for (const { pixels } of rasters) {
    for (let p = 0; p < pixels.length; p += 4 * step) out.set(pixels.subarray(p, p + 4), (at += 4) - 4);
  }
  return out.subarray(0, at);
}

export function encodeGif(frames: GifFrame[], paletteFrom: Raster[]): Buffer {
  const first = frames[0]!.raster;
  const palette = quantize(samplePixels(paletteFrom), 256);
  const gif = GIFEncoder();
  frames.forEach((frame, i) => {
    const { width, height, pixels } = frame.raster;
    if (width !== first.width || height !== first.height) throw new RangeError("frame size does not match the image");
    // The palette goes with the first frame only: gifenc then writes it once, as the global table.
    gif.writeFrame(applyPalette(pixels, palette), width, height, { palette: i === 0 ? palette : undefined, delay: frame.delayCs * 10, repeat: 0 });
  });
  gif.finish();
  return Buffer.from(gif.bytes());
}
