// Image bytes to a grey page, the format told by its first bytes (never by its name). The size is read
// from the header first, so an image of 30,000 x 30,000 pixels is refused before a byte of it is inflated.
// PNG (pngjs), JPEG (jpeg-js), TIFF (utif2, its first page) and GIF (gif.ts, its first frame) are pure
// JavaScript; WebP needs sharp's native library, which the single binary leaves out (scripts/build-binary.ts):
// there a WebP image fails with a plain reason instead.
import { tooLarge } from "../budget.ts";
import { IngestError } from "../errors.ts";
import { decodeGifFirstFrame, gifSize } from "./gif.ts";
import { toGray, type GrayImage } from "./raster.ts";

export type ImageFormat = "png" | "jpeg" | "gif" | "tiff" | "webp";

export function imageFormatOf(bytes: Uint8Array): ImageFormat | null {
  const ascii = (at: number, text: string) => [...text].every((c, i) => bytes[at + i] === c.charCodeAt(0));
  if (ascii(0, "\x89PNG\r\n\x1a\n")) return "png";
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "jpeg";
  if (ascii(0, "GIF87a") || ascii(0, "GIF89a")) return "gif";
  if (ascii(0, "II*\0") || ascii(0, "MM\0*")) return "tiff";
  if (ascii(0, "RIFF") && ascii(8, "WEBP")) return "webp";
  return null;
}

/** Decodes the image if it has at most `maxPixels` pixels; `document_too_large` otherwise. */
export async function decodeImage(bytes: Uint8Array, format: ImageFormat, maxPixels: number): Promise<GrayImage> {
  const size = format === "tiff" ? null : headerSize(bytes, format);
  if (size) refuseOversized(size.width, size.height, maxPixels);
  switch (format) {
    case "png": {
      const { PNG } = await import("pngjs");
      const png = PNG.sync.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
      return toGray(png.data, png.width, png.height, 4);
    }
    case "jpeg": {
      const jpeg = await import("jpeg-js");
      const memoryMb = Math.ceil((maxPixels * 4) / 2 ** 20) + 64;
      const image = jpeg.decode(bytes, { useTArray: true, formatAsRGBA: false, maxResolutionInMP: maxPixels / 1e6, maxMemoryUsageInMB: memoryMb });
      return toGray(image.data, image.width, image.height, image.data.length / (image.width * image.height));
    }
    case "gif":
      return decodeGifFirstFrame(bytes);
    case "tiff":
      return decodeTiff(bytes, maxPixels);
    case "webp":
      return decodeWebp(bytes);
  }
}

function refuseOversized(width: number, height: number, maxPixels: number): void {
  if (width <= 0 || height <= 0) throw new IngestError("unreadable_document", "could not read the image: its header gives it no size");
  if (width * height > maxPixels) {
    const mp = (n: number) => `${+(n / 1e6).toFixed(1)} megapixels`;
    throw tooLarge(`the image is ${width.toLocaleString("en-US")} x ${height.toLocaleString("en-US")} pixels (${mp(width * height)}); at most ${mp(maxPixels)} are read`);
  }
}

/** Width and height from the header, or null when the header does not say (the decoder then finds out). */
function headerSize(bytes: Uint8Array, format: Exclude<ImageFormat, "tiff">): { width: number; height: number } | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 30) return null;
  if (format === "png") return { width: view.getUint32(16), height: view.getUint32(20) };
  if (format === "gif") return gifSize(bytes);
  if (format === "webp") return webpSize(bytes, view);
  // JPEG: the first start-of-frame marker (C0-CF but C4, C8, CC) carries the size.
  for (let at = 2; at + 9 < bytes.length; ) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1]!;
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: view.getUint16(at + 5), width: view.getUint16(at + 7) };
    }
    at += 2 + view.getUint16(at + 2);
  }
  return null;
}

function webpSize(bytes: Uint8Array, view: DataView): { width: number; height: number } | null {
  const chunk = String.fromCharCode(...bytes.subarray(12, 16));
  const u24 = (at: number) => bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16);
  if (chunk === "VP8X") return { width: u24(24) + 1, height: u24(27) + 1 };
  if (chunk === "VP8 ") return { width: view.getUint16(26, true) & 0x3fff, height: view.getUint16(28, true) & 0x3fff };
  if (chunk === "VP8L") {
    const bits = view.getUint32(21, true);
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  return null;
}

async function decodeTiff(bytes: Uint8Array, maxPixels: number): Promise<GrayImage> {
  const UTIF = await import("utif2");
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  const [page] = UTIF.decode(buffer);
  if (!page) throw new IngestError("unreadable_document", "could not read the TIFF image: it has no pages");
  // Size from the directory's tags (256: width, 257: height) before the pixels are decompressed.
  const tag = (name: string) => Number((page[name] as number[] | undefined)?.[0] ?? 0);
  refuseOversized(tag("t256"), tag("t257"), maxPixels);
  UTIF.decodeImage(buffer, page);
  return toGray(UTIF.toRGBA8(page), page.width, page.height, 4);
}

type Sharp = (input: Uint8Array) => {
  greyscale(): { raw(): { toBuffer(o: { resolveWithObject: true }): Promise<{ data: Buffer; info: { width: number; height: number; channels: number } }> } };
};

/** The message of the stand-in the single binary carries instead of sharp (scripts/build-binary.ts). */
const SHARP_LEFT_OUT = "image input is not supported";

async function decodeWebp(bytes: Uint8Array): Promise<GrayImage> {
  const unsupported = () =>
    new IngestError("unsupported_type", "WebP images cannot be read by this build (its image library is not in the single binary); convert the image to PNG or JPEG");
  const sharp = await import("sharp").then((m) => m.default as unknown as Sharp, () => null);
  if (!sharp) throw unsupported();
  try {
    const { data, info } = await sharp(bytes).greyscale().raw().toBuffer({ resolveWithObject: true });
    return toGray(data, info.width, info.height, info.channels);
  } catch (error) {
    if ((error as Error).message === SHARP_LEFT_OUT) throw unsupported();
    throw error;
  }
}
