// clips/render: short quote clips from a wiki page as one looping GIF. The frames are split between up
// to three quotes; each quote types itself out word by word, then holds, with a progress bar below.
import { encodeGif, type GifFrame } from "../render/gif";
import { el, FAMILY, renderRgba, type Node, type Raster } from "../render/render";

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

const COLORS = { from: "#111827", to: "#312e81", accent: "#f59e0b", text: "#f9fafb", muted: "#9ca3af", track: "#374151" };
const TYPE_DELAY_CS = 12;
const HOLD_DELAY_CS = 180;

/** How many of `frames` each quote gets: as even as possible, at least two (one typing, one hold). */
function share(frames: number, quotes: number): number[] {
  const used = Math.max(1, Math.min(quotes, Math.floor(frames / 2)));
  return Array.from({ length: used }, (_, i) => Math.floor(frames / used) + (i < frames % used ? 1 : 0));
}

function frameLayout(input: ClipInput, shown: string, progress: number): Node {
  const { width, height } = input;
  const pad = Math.round(Math.min(width, height) * 0.08);
  const size = Math.max(9, Math.round(Math.min(width / 240, height / 135) * 11));
  const bar = Math.max(2, Math.round(size / 5));
  return el(
    "div",
    { display: "flex", flexDirection: "column", width: "100%", height: "100%", padding: pad, boxSizing: "border-box", fontFamily: FAMILY, backgroundImage: `linear-gradient(180deg, ${COLORS.from}, ${COLORS.to})` },
    el("div", { display: "block", fontSize: size * 3, fontWeight: 700, lineHeight: 1, height: size * 2, color: COLORS.accent, flexShrink: 0 }, "\u201C"),
    el("div", { display: "block", fontSize: size, lineHeight: 1.35, color: COLORS.text, flexGrow: 1, flexShrink: 1, overflow: "hidden" }, shown),
    el("div", { display: "block", fontSize: size, color: COLORS.muted, lineClamp: 1, marginTop: Math.round(size / 2), flexShrink: 0 }, input.title),
    el(
      "div",
      { display: "flex", height: bar, marginTop: Math.round(pad / 3), background: COLORS.track, flexShrink: 0 },
      el("div", { width: `${(progress * 100).toFixed(2)}%`, height: "100%", background: COLORS.accent }),
    ),
  );
}

export async function renderClip(input: ClipInput): Promise<Clip> {
  const counts = share(input.frames, input.quotes.length);
  const quotes = input.quotes.slice(0, counts.length);
  const frames: GifFrame[] = [];
  const finals: Raster[] = [];
  for (const [q, quote] of quotes.entries()) {
    // Text without spaces (Chinese, Japanese) types itself out character by character.
    const spaced = /\s/.test(quote.trim());
    const words = spaced ? quote.split(/\s+/) : [...quote];
    const count = counts[q]!;
    for (let k = 0; k < count; k++) {
      const last = k === count - 1;
      const shown = words.slice(0, last ? words.length : Math.ceil((words.length * (k + 1)) / count)).join(spaced ? " " : "");
      // Between frames the event loop runs: a long clip does not hold up other requests.
      await new Promise((resolve) => setImmediate(resolve));
      const raster = await renderRgba(frameLayout(input, shown, (frames.length + 1) / input.frames), input.width, input.height);
      frames.push({ raster, delayCs: last ? HOLD_DELAY_CS : TYPE_DELAY_CS });
      if (last) finals.push(raster);
    }
  }
  return {
    gif: encodeGif(frames, finals),
    frames: frames.length,
    quotes,
    durationMs: frames.reduce((sum, f) => sum + f.delayCs * 10, 0),
  };
}
