// An indexed-colour raster (one palette byte per pixel): what both PNG (colour type 3) and GIF store,
// so one drawing feeds either encoder. Only what cards and clips need: rectangles, gradients, text.
import { ADVANCE, GLYPH_ROWS, GLYPH_WIDTH, glyph, LINE_HEIGHT, textWidth, toDrawable } from "./font";

export type Rgb = [number, number, number];

export function rgb(hex: string): Rgb {
  const n = Number.parseInt(hex.replace(/^#/, ""), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/** `steps` colours from `from` to `to`, both included. */
export function ramp(from: Rgb, to: Rgb, steps: number): Rgb[] {
  return Array.from({ length: steps }, (_, i) => {
    const t = steps === 1 ? 0 : i / (steps - 1);
    return from.map((c, k) => Math.round(c + (to[k]! - c) * t)) as Rgb;
  });
}

export class IndexedCanvas {
  readonly pixels: Uint8Array;

  constructor(
    readonly width: number,
    readonly height: number,
    /** At most 256 colours; pixel values index it. */
    readonly palette: Rgb[],
  ) {
    if (palette.length === 0 || palette.length > 256) throw new RangeError("palette must have 1..256 colours");
    this.pixels = new Uint8Array(width * height);
  }

  rect(x: number, y: number, w: number, h: number, color: number): void {
    const x0 = Math.max(0, Math.floor(x));
    const y0 = Math.max(0, Math.floor(y));
    const x1 = Math.min(this.width, Math.floor(x + w));
    const y1 = Math.min(this.height, Math.floor(y + h));
    for (let row = y0; row < y1; row++) this.pixels.fill(color, row * this.width + x0, row * this.width + x1);
  }

  /** Top-to-bottom bands through palette entries first..first+count-1. */
  verticalGradient(first: number, count: number): void {
    for (let row = 0; row < this.height; row++) {
      const band = Math.min(count - 1, Math.floor((row / this.height) * count));
      this.pixels.fill(first + band, row * this.width, (row + 1) * this.width);
    }
  }

  /** Draws one line of text with its top-left at (x, y); returns the width drawn. */
  text(line: string, x: number, y: number, scale: number, color: number): number {
    const drawable = toDrawable(line);
    for (let i = 0; i < drawable.length; i++) {
      const rows = glyph(drawable[i]!);
      const gx = x + i * ADVANCE * scale;
      for (let r = 0; r < GLYPH_ROWS; r++) {
        const bits = rows[r]!;
        if (bits === 0) continue;
        for (let c = 0; c < GLYPH_WIDTH; c++) {
          if (bits & (1 << (GLYPH_WIDTH - 1 - c))) this.rect(gx + c * scale, y + r * scale, scale, scale, color);
        }
      }
    }
    return textWidth(drawable, scale);
  }
}

/**
 * Greedy word wrap to `maxWidth` pixels at `scale`; words longer than a line are cut. Past `maxLines`
 * the last line ends in "...". Text is reduced to what the font can draw first.
 */
export function wrapText(text: string, maxWidth: number, scale: number, maxLines: number): string[] {
  const perLine = Math.max(1, Math.floor((maxWidth / scale + 1) / ADVANCE));
  const words = toDrawable(text).split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  let current = "";
  for (let word of words) {
    while (word.length > perLine) {
      if (current) lines.push(current), (current = "");
      lines.push(word.slice(0, perLine));
      word = word.slice(perLine);
    }
    const candidate = current ? `${current} ${word}` : word;
    if (candidate.length <= perLine) current = candidate;
    else lines.push(current), (current = word);
  }
  if (current) lines.push(current);
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, maxLines);
  const last = kept[maxLines - 1]!;
  kept[maxLines - 1] = `${last.slice(0, Math.max(0, perLine - 3)).trimEnd()}...`;
  return kept;
}

export const lineHeight = (scale: number) => LINE_HEIGHT * scale;
