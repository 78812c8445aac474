// The pages of a PDF that have no text layer (a scan, or a page whose text layer is empty) read with OCR:
// the images each such page paints are taken from pdf.js (decoded by it, on a document opened for this pass
// only, so an image over the pixel limit is refused by pdf.js before it is decoded) and read one by one.
// Text-layer pages are not touched. How many pages may need OCR is checked first, so a PDF of 5,000 blank
// scanned pages fails at once instead of being decoded page by page; a blank page within the limit is told
// apart cheaply (raster.ts) and skipped before the models run.
import { tooLarge, type ExtractionLimits } from "./budget.ts";
import { IngestError } from "./errors.ts";
import { escapePlainText } from "./extract-text.ts";
import { announceOcrPage } from "./ocr/heartbeat.ts";
import { ocrNote } from "../lib/ocr-note.ts";
import { toGray, type GrayImage } from "./ocr/raster.ts";
import { readPageImage } from "./ocr/read-page.ts";

/** Images smaller than this on either side are rules, bullets and logos, not text. */
const MIN_IMAGE_SIDE = 24;
/** pdf.js's image kinds (its ImageKind): 1 bit per pixel (set = white), RGB, RGBA. */
const KIND_CHANNELS: Record<number, number> = { 2: 3, 3: 4 };

type PdfImage = { width: number; height: number; data?: Uint8Array | Uint8ClampedArray; kind?: number };

/** Markdown per page number (1-based) for the given pages; a page with no readable text is left out. */
export async function readScannedPages(bytes: Uint8Array, pageNumbers: number[], limits: ExtractionLimits): Promise<Map<number, string>> {
  if (pageNumbers.length > limits.ocrMaxPages) throw tooManyScannedPages(pageNumbers.length, limits.ocrMaxPages);
  const { getDocumentProxy, getResolvedPDFJS } = await import("unpdf");
  const { OPS } = await getResolvedPDFJS();
  const pdf = await getDocumentProxy(bytes.slice(), {
    verbosity: 0,
    maxImageSize: limits.ocrMaxPixels,
    // pdf.js leaves out an image over maxImageSize (before decoding it); oversizedImage() says why a page came out empty.
    isOffscreenCanvasSupported: false,
    isImageDecoderSupported: false,
  } as Parameters<typeof getDocumentProxy>[1]);
  const texts = new Map<number, string>();
  let largest: { width: number; height: number } | undefined;
  try {
    for (const number of pageNumbers) {
      announceOcrPage(limits.ocrPageTimeMs);
      const page = await pdf.getPage(number);
      try {
        const parts: string[] = [];
        const images = await pageImages(page, OPS, number);
        for (const image of images) {
          const text = await readPageImage(image, limits, `page ${number}`);
          if (text) parts.push(escapePlainText(text));
        }
        if (parts.length) texts.set(number, `${ocrNote(`page ${number} of the scan`)}\n\n${parts.join("\n\n")}`);
        else if (!images.length) refuseOversized((largest ??= largestImage(bytes)), number, limits.ocrMaxPixels);
      } finally {
        page.cleanup(); // its decoded images are freed before the next page's
      }
    }
  } finally {
    await pdf.loadingTask.destroy().catch(() => undefined);
  }
  return texts;
}

type Page = Awaited<ReturnType<Awaited<ReturnType<typeof import("unpdf")["getDocumentProxy"]>>["getPage"]>>;

/** The images the page paints, in the order it paints them, as grey. */
async function pageImages(page: Page, OPS: Record<string, number>, number: number): Promise<GrayImage[]> {
  let operators: Awaited<ReturnType<Page["getOperatorList"]>>;
  try {
    operators = await page.getOperatorList();
  } catch (error) {
    throw new IngestError("unreadable_document", `could not read the PDF: page ${number} is damaged (${(error as Error)?.message ?? String(error)})`);
  }
  const images: GrayImage[] = [];
  for (let i = 0; i < operators.fnArray.length; i++) {
    const op = operators.fnArray[i];
    let image: PdfImage | null = null;
    if (op === OPS.paintImageXObject) {
      const key = String(operators.argsArray[i][0]);
      const store = key.startsWith("g_") ? page.commonObjs : page.objs;
      image = await new Promise<PdfImage | null>((resolve) => store.get(key, resolve as (data: unknown) => void));
    } else if (op === OPS.paintInlineImageXObject) {
      image = operators.argsArray[i][0] as PdfImage;
    }
    const gray = image ? toGrayImage(image) : null;
    if (gray) images.push(gray);
  }
  return images;
}

function toGrayImage(image: PdfImage): GrayImage | null {
  const { width, height, data } = image;
  if (!data || width < MIN_IMAGE_SIDE || height < MIN_IMAGE_SIDE) return null;
  if (image.kind === 1) return unpackBits(data, width, height);
  const channels = KIND_CHANNELS[image.kind ?? 0] ?? data.length / (width * height);
  return [1, 3, 4].includes(channels) ? toGray(data, width, height, channels) : null;
}

/** A 1-bit image (rows padded to whole bytes) as grey. */
function unpackBits(data: Uint8Array | Uint8ClampedArray, width: number, height: number): GrayImage {
  const out = new Uint8Array(width * height);
  const stride = Math.ceil(width / 8);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) out[y * width + x] = data[y * stride + (x >> 3)]! & (0x80 >> (x & 7)) ? 255 : 0;
  }
  return { width, height, data: out };
}

/** "the PDF has more than 200 pages without a text layer (of 5,000)": `document_too_large`. */
export function tooManyScannedPages(pages: number, max: number): IngestError {
  const n = (v: number) => v.toLocaleString("en-US");
  return tooLarge(`the PDF has more than ${n(max)} pages without a text layer (of ${n(pages)} pages); at most ${n(max)} pages of a document are read with OCR`);
}

/** An image XObject's dictionary: its width and height, in either order. */
const IMAGE_DICTIONARY = /\/Subtype\s*\/Image\b[^]*?(?=stream|endobj)/g;

/** The PDF's largest image by its dictionary's /Width and /Height (read once, only when a scanned page is empty). */
function largestImage(bytes: Uint8Array): { width: number; height: number } {
  let largest = { width: 0, height: 0 };
  for (const match of new TextDecoder("latin1").decode(bytes).matchAll(IMAGE_DICTIONARY)) {
    const dictionary = match[0].slice(0, 2048);
    const width = Number(/\/Width\s+(\d+)/.exec(dictionary)?.[1] ?? 0);
    const height = Number(/\/Height\s+(\d+)/.exec(dictionary)?.[1] ?? 0);
    if (width * height > largest.width * largest.height) largest = { width, height };
  }
  return largest;
}

/**
 * A scanned page that painted no image had it left out by pdf.js for its size when the PDF holds an image
 * over the limit: the page is refused by name (`document_too_large`) rather than read as blank.
 */
function refuseOversized({ width, height }: { width: number; height: number }, page: number, maxPixels: number): void {
  if (width * height <= maxPixels) return;
  const mp = (v: number) => `${+(v / 1e6).toFixed(1)} megapixels`;
  throw tooLarge(`page ${page} holds an image of ${width.toLocaleString("en-US")} x ${height.toLocaleString("en-US")} pixels (${mp(width * height)}); at most ${mp(maxPixels)} of a scanned page are read with OCR`);
}
