// Chinese, Japanese kana and other CJK text: Noto Sans SC is split into slices of a few hundred characters
// each; only the slices a text needs are read and handed to satori (which keeps them for later renders).
import type { Font } from "satori";
import { CJK_CSS_FILE, CJK_SLICES } from "./cjk-slices";
import { readFont } from "./fonts";

type Range = [from: number, to: number, slice: number];

let ranges: Promise<Range[]> | undefined;
const slices = new Map<number, Promise<Font>>();

/** The unicode-range of each numbered slice, from the package's stylesheet, sorted by first code point. */
function sliceRanges(): Promise<Range[]> {
  ranges ??= Bun.file(CJK_CSS_FILE)
    .text()
    .then((css) => {
      const out: Range[] = [];
      for (const face of css.split("@font-face").slice(1)) {
        const slice = face.match(/noto-sans-sc-(\d+)-400-normal\.woff\)/)?.[1];
        const unicode = face.match(/unicode-range:\s*([^;]+);/)?.[1];
        if (slice === undefined || unicode === undefined || !(Number(slice) in CJK_SLICES)) continue;
        for (const part of unicode.split(",")) {
          const [from, to = from] = part.trim().replace(/^U\+/i, "").split("-");
          out.push([Number.parseInt(from!, 16), Number.parseInt(to!, 16), Number(slice)]);
        }
      }
      return out.sort((a, b) => a[0] - b[0]);
    });
  return ranges;
}

function sliceOf(sorted: Range[], codePoint: number): number | undefined {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const [from, to, slice] = sorted[mid]!;
    if (codePoint < from) hi = mid - 1;
    else if (codePoint > to) lo = mid + 1;
    else return slice;
  }
  return undefined;
}

/** The slices that hold the characters of `text` (none for characters no slice has). */
export async function cjkFontsFor(text: string): Promise<Font[]> {
  const sorted = await sliceRanges();
  const wanted = new Set<number>();
  for (const char of text) {
    const slice = sliceOf(sorted, char.codePointAt(0)!);
    if (slice !== undefined) wanted.add(slice);
  }
  return Promise.all(
    [...wanted].map((slice) => {
      let font = slices.get(slice);
      if (!font) slices.set(slice, (font = readFont(`Noto Sans SC ${slice}`, CJK_SLICES[slice]!, 400)));
      return font;
    }),
  );
}
