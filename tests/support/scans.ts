// Scans the tests make: text laid out by satori and drawn by resvg (the renderer the server ships), at a
// chosen resolution, then turned a little and speckled like a page through a flatbed scanner, and wrapped
// into a PDF whose pages are images only (no text layer), the way a scanner writes one.
import { crc32, deflateSync } from "node:zlib";
import { PNG } from "pngjs";
import { el, renderRgba } from "../../src/modules/x402/render/render.ts";
import { mulberry32 } from "./random.ts";

export interface Gray {
  width: number;
  height: number;
  data: Uint8Array;
}

export interface ScanOptions {
  dpi?: number;
  /** Degrees, clockwise. */
  rotate?: number;
  /** Standard deviation of the grey noise added to every pixel (0 to 255). */
  noise?: number;
  /** Points; 12 by default. */
  fontSize?: number;
  /** Inches of paper: US letter by default; height grows with the text when `fit` is set. */
  widthInches?: number;
  heightInches?: number;
  seed?: number;
}

/** Paragraphs drawn as a page at `dpi`, grey, optionally rotated and noisy. */
export async function renderScan(paragraphs: string[], options: ScanOptions = {}): Promise<Gray> {
  const dpi = options.dpi ?? 300;
  const px = (points: number) => Math.round((points / 72) * dpi);
  const width = Math.round((options.widthInches ?? 8.5) * dpi);
  const height = Math.round((options.heightInches ?? 11) * dpi);
  const fontSize = px(options.fontSize ?? 12);
  const page = el(
    "div",
    { display: "flex", flexDirection: "column", width, height, padding: px(72), backgroundColor: "white", color: "black", fontSize, lineHeight: 1.35 },
    ...paragraphs.map((text) => el("div", { display: "flex", width: width - 2 * px(72), marginBottom: Math.round(fontSize * 0.9) }, text)),
  );
  const raster = await renderRgba(page, width, height);
  let gray: Gray = { width, height, data: new Uint8Array(width * height) };
  for (let i = 0; i < gray.data.length; i++) {
    const p = i * 4;
    const alpha = raster.pixels[p + 3]! / 255;
    const luma = 0.3 * raster.pixels[p]! + 0.59 * raster.pixels[p + 1]! + 0.11 * raster.pixels[p + 2]!;
    gray.data[i] = Math.round(luma * alpha + 255 * (1 - alpha));
  }
  if (options.rotate) gray = rotate(gray, options.rotate);
  if (options.noise) addNoise(gray, options.noise, options.seed ?? 7);
  return gray;
}

/** Turned about its centre, white where the paper was not. */
export function rotate(image: Gray, degrees: number): Gray {
  const angle = (degrees * Math.PI) / 180;
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const out = new Uint8Array(image.width * image.height).fill(255);
  const cx = image.width / 2;
  const cy = image.height / 2;
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      const sx = Math.round(cos * (x - cx) + sin * (y - cy) + cx);
      const sy = Math.round(-sin * (x - cx) + cos * (y - cy) + cy);
      if (sx >= 0 && sy >= 0 && sx < image.width && sy < image.height) out[y * image.width + x] = image.data[sy * image.width + sx]!;
    }
  }
  return { width: image.width, height: image.height, data: out };
}

/** Grey noise on every pixel and a sprinkle of dark specks, the same for the same seed. */
export function addNoise(image: Gray, sigma: number, seed: number): void {
  const random = mulberry32(seed);
  for (let i = 0; i < image.data.length; i++) {
    const gauss = (random() + random() + random() - 1.5) * 2 * sigma; // about normal, sd ~ sigma
    let v = image.data[i]! + gauss;
    if (random() < 0.0005) v = 40;
    image.data[i] = Math.max(0, Math.min(255, Math.round(v)));
  }
}

export function grayToPng(image: Gray): Uint8Array {
  const png = new PNG({ width: image.width, height: image.height, colorType: 0, inputColorType: 0, bitDepth: 8 });
  png.data = Buffer.from(image.data);
  return new Uint8Array(PNG.sync.write(png, { colorType: 0, inputColorType: 0 }));
}

/**
 * A PDF of image-only pages (DeviceGray, Flate), each page the size the image has at `dpi`. Pages that are
 * the same image object (`pages` listing one image many times) share it, so a PDF of 5,000 blank pages is
 * small; a page given as `{ text }` is a text-layer page instead (Helvetica), for mixed documents.
 */
export function scannedPdf(images: Gray[], pages: Array<number | { text: string }> = images.map((_, i) => i), dpi = 300): Uint8Array {
  const chunks: Uint8Array[] = [];
  const offsets: number[] = [];
  let length = 0;
  const write = (part: string | Uint8Array) => {
    const bytes = typeof part === "string" ? new TextEncoder().encode(part) : part;
    chunks.push(bytes);
    length += bytes.length;
  };
  const object = (n: number, body: () => void) => {
    offsets[n] = length;
    write(`${n} 0 obj\n`);
    body();
    write("\nendobj\n");
  };
  // 1 catalog, 2 pages, 3 the font, then per image one XObject, then per page a page and its content stream.
  const imageObject = (i: number) => 4 + i;
  const pageObject = (k: number) => 4 + images.length + 2 * k;
  write("%PDF-1.4\n");
  object(1, () => write("<< /Type /Catalog /Pages 2 0 R >>"));
  object(2, () => write(`<< /Type /Pages /Count ${pages.length} /Kids [${pages.map((_, k) => `${pageObject(k)} 0 R`).join(" ")}] >>`));
  object(3, () => write("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"));
  images.forEach((image, i) =>
    object(imageObject(i), () => {
      const data = deflateSync(image.data);
      write(`<< /Type /XObject /Subtype /Image /Width ${image.width} /Height ${image.height} /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode /Length ${data.length} >>\nstream\n`);
      write(data);
      write("\nendstream");
    }),
  );
  pages.forEach((spec, k) => {
    const image = typeof spec === "number" ? images[spec]! : null;
    const [w, h] = image ? [(image.width / dpi) * 72, (image.height / dpi) * 72] : [612, 792];
    const escape = (t: string) => t.replace(/[\\()]/g, (c) => `\\${c}`);
    const content = image ? `q ${w.toFixed(2)} 0 0 ${h.toFixed(2)} 0 0 cm /Im0 Do Q` : `BT /F1 12 Tf 72 700 Td (${escape((spec as { text: string }).text)}) Tj ET`;
    const resources = image ? `/XObject << /Im0 ${imageObject(spec as number)} 0 R >>` : "/Font << /F1 3 0 R >>";
    object(pageObject(k), () =>
      write(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${w.toFixed(2)} ${h.toFixed(2)}] /Resources << ${resources} >> /Contents ${pageObject(k) + 1} 0 R >>`),
    );
    object(pageObject(k) + 1, () => write(`<< /Length ${content.length} >>\nstream\n${content}\nendstream`));
  });
  const xref = length;
  const count = 4 + images.length + 2 * pages.length;
  write(`xref\n0 ${count}\n0000000000 65535 f \n`);
  for (let n = 1; n < count; n++) write(`${String(offsets[n]).padStart(10, "0")} 00000 n \n`);
  write(`trailer\n<< /Size ${count} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  return new Uint8Array(Buffer.concat(chunks));
}

/**
 * A valid, all-white PNG of any size, written without holding its pixels: 1 bit per pixel, every row the same,
 * so a 30,000 x 30,000 image is a few hundred kilobytes on disk (and 900 megapixels to whoever decodes it).
 */
export function blankPng(width: number, height: number): Uint8Array {
  const row = Buffer.alloc(1 + Math.ceil(width / 8), 0xff);
  row[0] = 0; // filter: none
  const raw = Buffer.allocUnsafe(row.length * height);
  for (let y = 0; y < height; y++) row.copy(raw, y * row.length);
  const chunk = (type: string, data: Uint8Array) => {
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const out = Buffer.alloc(8 + data.length + 4);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body) >>> 0, 8 + data.length);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([1, 0, 0, 0, 0], 8); // 1 bit, grey, deflate, adaptive filtering, no interlace
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return new Uint8Array(Buffer.concat([signature, chunk("IHDR", header), chunk("IDAT", deflateSync(raw, { level: 1 })), chunk("IEND", new Uint8Array())]));
}
