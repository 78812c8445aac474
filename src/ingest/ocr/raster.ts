// A page image as OCR sees it: one byte of brightness per pixel (0 black, 255 white), row after row. Colour is
// not needed to read text and a grey copy is a quarter of an RGBA one, which matters for a 40-megapixel scan.

export interface GrayImage {
  width: number;
  height: number;
  data: Uint8Array;
}

/** Grey from interleaved 1, 2 (grey + alpha), 3 (RGB) or 4 (RGBA) channels; transparency is laid on white. */
export function toGray(pixels: ArrayLike<number>, width: number, height: number, channels: number): GrayImage {
  const data = new Uint8Array(width * height);
  if (channels === 1) {
    data.set(pixels as ArrayLike<number>);
    return { width, height, data };
  }
  const hasAlpha = channels === 2 || channels === 4;
  for (let i = 0, p = 0; i < data.length; i++, p += channels) {
    const luma = channels >= 3 ? (pixels[p]! * 77 + pixels[p + 1]! * 150 + pixels[p + 2]! * 29) >> 8 : pixels[p]!;
    const alpha = hasAlpha ? pixels[p + channels - 1]! : 255;
    data[i] = (luma * alpha + 255 * (255 - alpha)) / 255;
  }
  return { width, height, data };
}

/** A smaller copy (each side times `scale` < 1), every output pixel the mean of the input pixels it covers. */
export function downscale(image: GrayImage, scale: number): GrayImage {
  if (scale >= 1) return image;
  const width = Math.max(1, Math.round(image.width * scale));
  const height = Math.max(1, Math.round(image.height * scale));
  const sums = new Float64Array(width * height);
  const counts = new Uint32Array(width * height);
  const xOf = new Uint32Array(image.width);
  for (let x = 0; x < image.width; x++) xOf[x] = Math.min(width - 1, Math.floor((x * width) / image.width));
  for (let y = 0; y < image.height; y++) {
    const row = Math.min(height - 1, Math.floor((y * height) / image.height)) * width;
    const from = y * image.width;
    for (let x = 0; x < image.width; x++) {
      sums[row + xOf[x]!]! += image.data[from + x]!;
      counts[row + xOf[x]!]!++;
    }
  }
  const data = new Uint8Array(width * height);
  for (let i = 0; i < data.length; i++) data[i] = counts[i] ? sums[i]! / counts[i]! : 255;
  return { width, height, data };
}

/** Brightness at a fractional position (bilinear), white outside the image. */
export function sample(image: GrayImage, x: number, y: number): number {
  const x0 = Math.floor(x);
  const y0 = Math.floor(y);
  const fx = x - x0;
  const fy = y - y0;
  const at = (px: number, py: number) => (px < 0 || py < 0 || px >= image.width || py >= image.height ? 255 : image.data[py * image.width + px]!);
  const top = at(x0, y0) * (1 - fx) + at(x0 + 1, y0) * fx;
  const bottom = at(x0, y0 + 1) * (1 - fx) + at(x0 + 1, y0 + 1) * fx;
  return top * (1 - fy) + bottom * fy;
}

/** Darker than the page's background by this much counts as ink. */
const INK_CONTRAST = 80;
/** Share of sampled pixels that must be ink for a page to hold anything worth reading. */
const MIN_INK_SHARE = 0.00003;
/** Pixels looked at to decide whether a page is blank (a sparse grid: the decision must stay cheap). */
const BLANK_SAMPLES = 250_000;

/**
 * A page with (next to) no ink: skipped before the models run. The background is the brightest common level
 * (the 90th percentile), so a grey scan of a white page is as blank as a white one, and scanner noise a few
 * levels either side of it is not ink. A sampled pixel is ink only with its right and lower neighbours: a
 * stroke of text is wider than a pixel at any resolution worth reading, a speck of dust is not.
 */
export function isBlank(image: GrayImage): boolean {
  const { width, height, data } = image;
  if (width < 2 || height < 2) return true;
  const last = (height - 1) * width - 1;
  const step = Math.max(1, Math.floor(last / BLANK_SAMPLES));
  const histogram = new Uint32Array(256);
  let seen = 0;
  for (let i = 0; i < last; i += step, seen++) histogram[data[i]!]!++;
  let background = 255;
  for (let level = 0, below = 0; level < 256; level++) {
    below += histogram[level]!;
    if (below >= seen * 0.9) {
      background = level;
      break;
    }
  }
  const dark = background - INK_CONTRAST;
  let ink = 0;
  for (let i = 0; i < last; i += step) {
    if (data[i]! < dark && data[i + 1]! < dark && data[i + width]! < dark && data[i + width + 1]! < dark && (i + 1) % width !== 0) ink++;
  }
  return ink < seen * MIN_INK_SHARE;
}
