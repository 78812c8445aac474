// clips/render: short quote clips from a wiki page as one looping GIF. The frames are split between up
// to three quotes; each quote types itself out word by word, then holds, with a progress bar below.
import { IndexedCanvas, lineHeight, ramp, rgb, wrapText } from "../render/canvas";
import { encodeGif, type GifFrame } from "../render/gif";

export interface ClipInput {
  title: string;
  quotes: string[];
  frames: number;
  width: number;
  height: number;
}

export interface Clip {
  gif: Buffer;
  frames: number;
  quotes: string[];
  durationMs: number;
}

const STEPS = 16;
const [ACCENT, TEXT, MUTED, TRACK] = [STEPS, STEPS + 1, STEPS + 2, STEPS + 3];
const PALETTE = [...ramp(rgb("#111827"), rgb("#312e81"), STEPS), rgb("#f59e0b"), rgb("#f9fafb"), rgb("#9ca3af"), rgb("#374151")];
const TYPE_DELAY_CS = 12;
const HOLD_DELAY_CS = 180;

/** How many of `frames` each quote gets: as even as possible, at least two (one typing, one hold). */
function share(frames: number, quotes: number): number[] {
  const used = Math.max(1, Math.min(quotes, Math.floor(frames / 2)));
  return Array.from({ length: used }, (_, i) => Math.floor(frames / used) + (i < frames % used ? 1 : 0));
}

export function renderClip(input: ClipInput): Clip {
  const { width, height } = input;
  const pad = Math.round(Math.min(width, height) * 0.08);
  const scale = Math.max(1, Math.floor(Math.min(width / 240, height / 135)));
  const counts = share(input.frames, input.quotes.length);
  const quotes = input.quotes.slice(0, counts.length);
  const frames: GifFrame[] = [];
  let index = 0;
  quotes.forEach((quote, q) => {
    const words = quote.split(/\s+/);
    const count = counts[q]!;
    for (let k = 0; k < count; k++) {
      const shown = k === count - 1 ? words.length : Math.ceil((words.length * (k + 1)) / count);
      const canvas = new IndexedCanvas(width, height, PALETTE);
      canvas.verticalGradient(0, STEPS);
      canvas.text('"', pad, pad, scale * 2, ACCENT);
      const room = Math.floor((height - 3 * pad - lineHeight(scale) * 2) / lineHeight(scale));
      let y = pad + lineHeight(scale * 2);
      for (const line of wrapText(words.slice(0, shown).join(" "), width - 2 * pad, scale, Math.max(1, room))) {
        canvas.text(line, pad, y, scale, TEXT);
        y += lineHeight(scale);
      }
      canvas.text(wrapText(input.title, width - 2 * pad, scale, 1)[0] ?? "", pad, height - pad - lineHeight(scale) - 2 * scale, scale, MUTED);
      const barY = height - Math.round(pad / 2) - scale;
      canvas.rect(pad, barY, width - 2 * pad, 2 * scale, TRACK);
      canvas.rect(pad, barY, Math.round(((width - 2 * pad) * (index + 1)) / input.frames), 2 * scale, ACCENT);
      frames.push({ pixels: canvas.pixels, delayCs: k === count - 1 ? HOLD_DELAY_CS : TYPE_DELAY_CS });
      index++;
    }
  });
  return {
    gif: encodeGif(width, height, PALETTE, frames),
    frames: frames.length,
    quotes,
    durationMs: frames.reduce((sum, f) => sum + f.delayCs * 10, 0),
  };
}
