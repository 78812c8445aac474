// OCR on the document thread's code path (extractDocument), with the real PP-OCRv4 models: images in every
// format told apart by their bytes, scanned and mixed PDFs, and the bounds (pixels, pages, time, blank pages).
// Heavier scans over HTTP (a question answered from a scan) are in tests/e2e/sources/ocr.test.ts.
import { describe, expect, test } from "bun:test";
import { GIFEncoder } from "gifenc";
import jpeg from "jpeg-js";
import * as UTIF from "utif2";
import { DEFAULT_EXTRACTION_BUDGET, extractDocument, type ExtractionLimits } from "../../src/ingest";
import { decodeGifFirstFrame } from "../../src/ingest/ocr/gif.ts";
import { printedLines } from "../../src/ingest/ocr/layout.ts";
import { isBlank } from "../../src/ingest/ocr/raster.ts";
import { proseUnits } from "../../src/ingest/markdown-prose.ts";
import { ocrNote } from "../../src/lib/ocr-note.ts";
import { searchTextOf } from "../../src/retrieval/search-text.ts";
import { mulberry32 } from "../support/random.ts";
import { addNoise, blankPng, grayToPng, renderScan, scannedPdf, type Gray } from "../support/scans.ts";

const LINE = "Invoice 4471 is due on 12 March";
const scan = await renderScan([LINE], { dpi: 200, widthInches: 5, heightInches: 1.4 });

const rgba = (image: Gray) => {
  const out = new Uint8Array(image.data.length * 4);
  image.data.forEach((v, i) => out.set([v, v, v, 255], i * 4));
  return out;
};
const grays = Array.from({ length: 256 }, (_, v) => [v, v, v]);

async function read(bytes: Uint8Array, limits: Partial<ExtractionLimits> = {}, filename = "scan.txt") {
  // A misleading name and label: the kind is told by the bytes.
  return extractDocument({ bytes, contentType: "application/octet-stream", filename }, { ...DEFAULT_EXTRACTION_BUDGET, ...limits });
}

async function failure(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  const error = await promise.then(() => null, (e: { code: string; message: string }) => e);
  expect(error).not.toBeNull();
  return error!;
}

const ENCODINGS: Record<string, () => Promise<Uint8Array>> = {
  png: async () => grayToPng(scan),
  jpeg: async () => new Uint8Array(jpeg.encode({ data: rgba(scan), width: scan.width, height: scan.height }, 90).data),
  tiff: async () => new Uint8Array(UTIF.encodeImage(rgba(scan), scan.width, scan.height)),
  gif: async () => {
    const gif = GIFEncoder();
    gif.writeFrame(scan.data, scan.width, scan.height, { palette: grays });
    gif.finish();
    return gif.bytes();
  },
  webp: async () => {
    const sharp = (await import("sharp")).default;
    return new Uint8Array(await sharp(Buffer.from(scan.data), { raw: { width: scan.width, height: scan.height, channels: 1 } }).webp({ quality: 90 }).toBuffer());
  },
};

describe("images read with OCR", () => {
  for (const [format, encode] of Object.entries(ENCODINGS)) {
    test(`${format.toUpperCase()}: the text, marked as OCR text, whatever the file is called`, async () => {
      const doc = await read(await encode());
      expect(doc.markdown).toStartWith("> _Text read by OCR");
      // Every character read; a space lost between two words ("on12") is a recognition error the note owns.
      expect(doc.markdown.replace(/\s+/g, "")).toContain(LINE.replace(/\s+/g, ""));
    });
  }

  test("an image of 30,000 x 30,000 pixels is refused from its header, before it is decoded", async () => {
    const huge = blankPng(30_000, 30_000);
    const error = await failure(read(huge));
    expect(error.code).toBe("document_too_large");
    expect(error.message).toContain("30,000 x 30,000 pixels (900 megapixels); at most 40 megapixels are read");
  });

  test("corrupt images fail as unreadable, in plain words", async () => {
    const png = grayToPng(scan);
    const cases = {
      png: [...png.subarray(0, 40), ...new Uint8Array(64).fill(7)],
      jpeg: [0xff, 0xd8, 0xff, 0xe0, 0, 16, ...new TextEncoder().encode("JFIF garbage that is not a JPEG at all")],
      gif: [...new TextEncoder().encode("GIF89a"), 10, 0, 10, 0, 0x80, 0, 0, ...new Uint8Array(6), 0x2c, 0, 0, 0, 0, 10, 0, 10, 0, 0, 13, 3, 1, 2, 3, 0, 0x3b],
      tiff: [...new TextEncoder().encode("II*\0"), 0xff, 0xff, 0xff, 0x7f, 1, 2, 3],
    };
    for (const [format, bytes] of Object.entries(cases)) {
      const error = await failure(read(Uint8Array.from(bytes)));
      expect(`${format}: ${error.code}`).toBe(`${format}: unreadable_document`);
      expect(error.message).toMatch(/^could not read the (IMAGE document|image): \w/);
    }
  });

  test("an image with no text fails as empty", async () => {
    const blank: Gray = { width: 600, height: 400, data: new Uint8Array(600 * 400).fill(235) };
    addNoise(blank, 10, 3);
    const error = await failure(read(grayToPng(blank)));
    expect(error).toMatchObject({ code: "empty_document", message: "the PNG image contains no text that OCR could read" });
  });

  test("OCR turned off: an image is refused, a scanned PDF says why it is empty", async () => {
    const image = await failure(read(grayToPng(scan), { ocrMaxPages: 0 }));
    expect(image).toMatchObject({ code: "unsupported_type" });
    expect(image.message).toContain("BRAINBOX_OCR_MAX_PAGES=0");
    const pdf = await failure(read(scannedPdf([scan], [0], 200), { ocrMaxPages: 0 }));
    expect(pdf.code).toBe("empty_document");
    expect(pdf.message).toContain("turned off");
  });

  test("a page past its time fails the document as over budget", async () => {
    const error = await failure(read(grayToPng(scan), { ocrPageTimeMs: 1 }));
    expect(error.code).toBe("extraction_over_budget");
    expect(error.message).toBe("reading the image with OCR took longer than 0.001 s");
  });
});

describe("scanned PDFs", () => {
  test("a mixed PDF keeps its text-layer page as text and reads its scanned page (rotated, noisy, 300 dpi) with OCR", async () => {
    const page = await renderScan(["Boiler room", "The pressure valve is tested every second Tuesday."], { dpi: 300, rotate: 1.2, noise: 12, heightInches: 2.5 });
    const pdf = scannedPdf([page], [{ text: "Facilities handbook, printed edition." }, 0]);
    const doc = await read(pdf);
    const [textPage, scannedPage] = doc.markdown.split("> _Text read by OCR");
    expect(textPage).toContain("Facilities handbook, printed edition.");
    expect(scannedPage).toStartWith(" (optical character recognition) from page 2 of the scan");
    expect(scannedPage).toContain("The pressure valve is tested every second Tuesday.");
  });

  test("blank scanned pages are skipped; a scan of only blank pages is empty, and says so", async () => {
    const blank: Gray = { width: 1275, height: 1650, data: new Uint8Array(1275 * 1650).fill(240) };
    addNoise(blank, 8, 5);
    const error = await failure(read(scannedPdf([blank], Array(30).fill(0), 150)));
    expect(error).toMatchObject({ code: "empty_document", message: "the PDF document contains no text (no text layer, and OCR found no text in its pages' images)" });
  });

  test("a PDF of 5,000 blank scanned pages fails at once on the page limit", async () => {
    const blank: Gray = { width: 850, height: 1100, data: new Uint8Array(850 * 1100).fill(255) };
    const error = await failure(read(scannedPdf([blank], Array(5000).fill(0), 100)));
    expect(error.code).toBe("document_too_large");
    expect(error.message).toBe("the PDF has more than 200 pages without a text layer (of 5,000 pages); at most 200 pages of a document are read with OCR");
  });

  test("a scanned page whose image is over the pixel limit is refused by name", async () => {
    const error = await failure(read(scannedPdf([scan], [0], 200), { ocrMaxPixels: 100_000 }));
    expect(error.code).toBe("document_too_large");
    expect(error.message).toBe("page 1 holds an image of 1,000 x 280 pixels (0.3 megapixels); at most 0.1 megapixels of a scanned page are read with OCR");
  });
});

describe("the pieces", () => {
  test("a blank page is told apart from a page with one short line, noise or not", async () => {
    const page: Gray = { width: 2550, height: 3300, data: new Uint8Array(2550 * 3300).fill(245) };
    addNoise(page, 12, 9);
    expect(isBlank(page)).toBe(true);
    const line = await renderScan(["Room 12"], { dpi: 300, noise: 12 });
    expect(isBlank(line)).toBe(false);
  });

  test("the OCR note is a generated line: not prose for concepts and answers, not indexed", () => {
    const page = `${ocrNote("page 2 of the scan")}\n\nThe boiler is serviced in May.`;
    expect(proseUnits(page).map((u) => u.text)).toEqual(["The boiler is serviced in May."]);
    expect(searchTextOf(page).trim()).toBe("The boiler is serviced in May.");
  });

  test("the GIF reader gives back the indices an encoder wrote, through the palette", () => {
    const random = mulberry32(11);
    const [width, height] = [97, 61];
    const indices = Uint8Array.from({ length: width * height }, () => Math.floor(random() * 256));
    const gif = GIFEncoder();
    gif.writeFrame(indices, width, height, { palette: grays });
    gif.finish();
    const decoded = decodeGifFirstFrame(gif.bytes());
    expect(decoded).toMatchObject({ width, height });
    expect(Array.from(decoded.data)).toEqual(Array.from(indices));
  });

  test("boxes on one printed line are joined left to right, lines run top to bottom, along the page's skew", () => {
    const angle = 0.02;
    const at = (u: number, v: number, text: string, length = 200) => ({
      text,
      confidence: 1,
      box: { cx: u * Math.cos(angle) - v * Math.sin(angle), cy: u * Math.sin(angle) + v * Math.cos(angle), angle, length, thickness: 40 },
    });
    const lines = printedLines([at(900, 300, "second line"), at(600, 100, "world"), at(300, 100, "hello"), at(300, 300, "the")]);
    expect(lines.map((l) => l.text)).toEqual(["hello world", "the second line"]);
  });
});
