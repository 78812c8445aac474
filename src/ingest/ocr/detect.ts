// Text detection with the DB model (differentiable binarization): the page, shrunk so its longer side fits
// DETECTION_SIDE and padded to a multiple of 32, becomes a map of "text here" probabilities. Its connected
// regions above a threshold are the text lines; each is measured along its main axis (so a slightly rotated
// scan gives slanted boxes, not boxes that swallow the next line) and grown back by the margin DB's
// training shrinks text regions by.
import type { InferenceSession } from "onnxruntime-node";
import { downscale, sample, type GrayImage } from "./raster.ts";

/** Longest side of the image the detector looks at: text of 10 pt at 300 dpi stays legible to it. */
export const DETECTION_SIDE = 1280;
/** A map pixel above this probability is text. */
const PIXEL_THRESHOLD = 0.3;
/** A region whose mean probability is below this is noise. */
const REGION_THRESHOLD = 0.6;
/** Regions smaller than this many map pixels are specks. */
const MIN_REGION_PIXELS = 12;
/** How far a region is grown back (DB's unclip ratio: area × ratio / perimeter). */
const UNCLIP_RATIO = 1.6;
/** Regions at least this much longer than thick vote for the page's skew. */
const LINE_LIKE = 3;
const MEAN = [0.485, 0.456, 0.406];
const STD = [0.229, 0.224, 0.225];

/** A text line in the original image's pixels: its centre, direction (radians) and size along and across it. */
export interface TextBox {
  cx: number;
  cy: number;
  angle: number;
  length: number;
  thickness: number;
}

interface Region {
  pixels: Int32Array;
  score: number;
  angle: number;
  elongation: number;
}

export async function detectText(session: InferenceSession, image: GrayImage): Promise<TextBox[]> {
  const { Tensor } = await import("onnxruntime-node");
  const scale = Math.min(1, DETECTION_SIDE / Math.max(image.width, image.height));
  const shrunk = downscale(image, scale);
  const width = Math.max(32, Math.round(shrunk.width / 32) * 32);
  const height = Math.max(32, Math.round(shrunk.height / 32) * 32);
  const input = new Float32Array(3 * width * height);
  const plane = width * height;
  const sx = shrunk.width / width;
  const sy = shrunk.height / height;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const v = sample(shrunk, (x + 0.5) * sx - 0.5, (y + 0.5) * sy - 0.5) / 255;
      const i = y * width + x;
      for (let c = 0; c < 3; c++) input[c * plane + i] = (v - MEAN[c]!) / STD[c]!;
    }
  }
  const output = await session.run({ [session.inputNames[0]!]: new Tensor("float32", input, [1, 3, height, width]) });
  const map = output[session.outputNames[0]!]!.data as Float32Array;
  const regions = findRegions(map, width, height);
  const skew = pageSkew(regions);
  // From map pixels back to the original image's.
  const toX = image.width / width;
  const toY = image.height / height;
  // A line is thinnest across its true direction: the page's skew, unless the region reads thinner level
  // (the skew estimate can be tilted by a few long lines whose shrunk regions lean).
  return regions.map((region) => thinner(measure(region, skew, width, toX, toY), skew === 0 ? null : measure(region, 0, width, toX, toY))).filter((box): box is TextBox => box !== null);
}

/** 8-connected regions of the thresholded map, each with its pixels, mean probability and main direction. */
function findRegions(map: Float32Array, width: number, height: number): Region[] {
  const seen = new Uint8Array(map.length);
  const queue = new Int32Array(map.length);
  const regions: Region[] = [];
  for (let start = 0; start < map.length; start++) {
    if (seen[start] || map[start]! <= PIXEL_THRESHOLD) continue;
    let head = 0;
    let tail = 0;
    queue[tail++] = start;
    seen[start] = 1;
    let sum = 0;
    while (head < tail) {
      const p = queue[head++]!;
      sum += map[p]!;
      const x = p % width;
      const y = (p - x) / width;
      for (let dy = -1; dy <= 1; dy++) {
        const ny = y + dy;
        if (ny < 0 || ny >= height) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const nx = x + dx;
          if (nx < 0 || nx >= width) continue;
          const q = ny * width + nx;
          if (!seen[q] && map[q]! > PIXEL_THRESHOLD) {
            seen[q] = 1;
            queue[tail++] = q;
          }
        }
      }
    }
    if (tail < MIN_REGION_PIXELS || sum / tail < REGION_THRESHOLD) continue;
    const pixels = queue.slice(0, tail);
    regions.push({ pixels, score: sum / tail, ...direction(pixels, width) });
  }
  return regions;
}

/** The region's main axis from its second moments, and how elongated it is along it. */
function direction(pixels: Int32Array, width: number): { angle: number; elongation: number } {
  let mx = 0;
  let my = 0;
  for (const p of pixels) {
    mx += p % width;
    my += Math.floor(p / width);
  }
  mx /= pixels.length;
  my /= pixels.length;
  let xx = 0;
  let yy = 0;
  let xy = 0;
  for (const p of pixels) {
    const dx = (p % width) - mx;
    const dy = Math.floor(p / width) - my;
    xx += dx * dx;
    yy += dy * dy;
    xy += dx * dy;
  }
  const angle = 0.5 * Math.atan2(2 * xy, xx - yy);
  const spread = Math.sqrt((xx - yy) ** 2 + 4 * xy * xy);
  const major = xx + yy + spread;
  const minor = Math.max(1e-6, xx + yy - spread);
  return { angle, elongation: Math.sqrt(major / minor) };
}

/** The page's skew: the median direction of its line-like regions (a lone "l" or "I" stands upright). */
function pageSkew(regions: Region[]): number {
  const angles = regions.filter((r) => r.elongation >= LINE_LIKE && Math.abs(r.angle) < Math.PI / 8).map((r) => r.angle);
  if (angles.length === 0) return 0;
  angles.sort((a, b) => a - b);
  return angles[Math.floor(angles.length / 2)]!;
}

function thinner(a: TextBox | null, b: TextBox | null): TextBox | null {
  if (!a || !b) return a ?? b;
  return b.thickness < a.thickness ? b : a;
}

/** The region's box along the page's skew, grown by DB's margin, in original-image pixels. */
function measure(region: Region, angle: number, width: number, toX: number, toY: number): TextBox | null {
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  let uMin = Infinity;
  let uMax = -Infinity;
  let vMin = Infinity;
  let vMax = -Infinity;
  for (const p of region.pixels) {
    const x = ((p % width) + 0.5) * toX;
    const y = (Math.floor(p / width) + 0.5) * toY;
    const u = x * cos + y * sin;
    const v = -x * sin + y * cos;
    if (u < uMin) uMin = u;
    if (u > uMax) uMax = u;
    if (v < vMin) vMin = v;
    if (v > vMax) vMax = v;
  }
  const length = uMax - uMin + toX;
  const thickness = vMax - vMin + toY;
  if (thickness < 4) return null;
  const margin = (length * thickness * UNCLIP_RATIO) / (2 * (length + thickness));
  const u = (uMin + uMax) / 2;
  const v = (vMin + vMax) / 2;
  return { cx: u * cos - v * sin, cy: u * sin + v * cos, angle, length: length + 2 * margin, thickness: thickness + 2 * margin };
}
