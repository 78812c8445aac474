import type { ExtractionLimits } from "./budget.ts";
import { IngestError } from "./errors.ts";
import { escapePlainText } from "./extract-text.ts";
import { decodeImage, type ImageFormat } from "./ocr/decode-image.ts";
import { ocrNote } from "../lib/ocr-note.ts";
import { readPageImage } from "./ocr/read-page.ts";
import { firstLineTitle, pickTitle, titleFromName } from "./titles.ts";
import type { DocumentSource, ExtractedDocument } from "./types.ts";

/** An image (PNG, JPEG, GIF's first frame, TIFF's first page, WebP) read with OCR: one page, marked as OCR text. */
export async function extractImage(bytes: Uint8Array, format: ImageFormat, source: DocumentSource, limits: ExtractionLimits): Promise<ExtractedDocument> {
  if (limits.ocrMaxPages === 0) throw ocrTurnedOff("an image");
  const image = await decodeImage(bytes, format, limits.ocrMaxPixels);
  const text = await readPageImage(image, limits, "the image");
  if (!text) throw new IngestError("empty_document", `the ${format.toUpperCase()} image contains no text that OCR could read`);
  return {
    title: pickTitle(firstLineTitle(text), titleFromName(source.filename, source.url)),
    markdown: `${ocrNote("the image")}\n\n${escapePlainText(text)}`,
  };
}

export function ocrTurnedOff(what: string): IngestError {
  return new IngestError("unsupported_type", `${what} is read with OCR, which this server has turned off (BRAINBOX_OCR_MAX_PAGES=0)`);
}
