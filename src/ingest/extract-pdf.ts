import { tooLarge, type ExtractionLimits } from "./budget.ts";
import { IngestError, isIngestError } from "./errors.ts";
import { checkPdfStreams } from "./pdf-streams.ts";
import { escapePlainText } from "./extract-text.ts";
import type { DocumentSource, ExtractedDocument as Extracted } from "./types.ts";
import { firstLineTitle, pickTitle, titleFromName } from "./titles.ts";
import { pdfLines, reflowPdfPage, type PdfLine } from "./pdf-reflow.ts";
import { readScannedPages, tooManyScannedPages } from "./pdf-ocr.ts";

/**
 * Text of every page in paragraphs (pdf-reflow.ts; a blank line between pages); title from metadata, first line
 * or file name. Its streams are measured first (pdf-streams.ts) and its pages counted before any is read.
 * Pages without a text layer are read with OCR (pdf-ocr.ts), unless OCR is turned off.
 */
export async function extractPdf(bytes: Uint8Array, source: DocumentSource, limits: ExtractionLimits): Promise<Extracted> {
  checkPdfStreams(bytes, limits);
  // Loaded on first use: pdf.js is large and most brains never see a PDF.
  const { getDocumentProxy, getMeta } = await import("unpdf");
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>> | undefined;
  try {
    // pdf.js may detach the buffer it is given: hand it a copy. (This pdf.js build has no eval path for fonts.)
    pdf = await getDocumentProxy(bytes.slice(), { verbosity: 0 });
    if (pdf.numPages > limits.maxPages) {
      throw tooLarge(`the PDF has more than ${limits.maxPages.toLocaleString("en-US")} pages (${pdf.numPages.toLocaleString("en-US")})`);
    }
    const pages = await textLayers(pdf, limits);
    const info = (await getMeta(pdf).catch(() => undefined))?.info as { Title?: unknown } | undefined;
    const layerText = pages.map((lines) => lines.map((l) => l.text).join("\n").trim());
    const scanned = layerText.flatMap((text, i) => (HAS_TEXT.test(text) ? [] : [i + 1]));
    const ocr = scanned.length && limits.ocrMaxPages > 0 ? await readScannedPages(bytes, scanned, limits) : new Map<number, string>();
    const markdown = pages.map((lines, i) => ocr.get(i + 1) ?? escapePlainText(reflowPdfPage(lines)));
    const text = layerText.map((t, i) => (ocr.has(i + 1) ? ocrText(ocr.get(i + 1)!) : t)).filter(Boolean).join("\n\n");
    const metaTitle = typeof info?.Title === "string" ? info.Title : "";
    return {
      title: pickTitle(metaTitle, firstLineTitle(text), titleFromName(source.filename, source.url)),
      markdown: markdown.filter(Boolean).join("\n\n"),
    };
  } catch (error) {
    if (isIngestError(error)) throw error;
    const name = error instanceof Error ? error.name : "";
    const why = name === "PasswordException" ? "it is password-protected" : `it is damaged or not a PDF (${describe(error)})`;
    throw new IngestError("unreadable_document", `could not read the PDF: ${why}`, { cause: error });
  } finally {
    await pdf?.loadingTask.destroy().catch(() => undefined); // frees the worker-side document
  }
}

const HAS_TEXT = /[\p{L}\p{N}]/u;

type Pdf = Awaited<ReturnType<typeof import("unpdf")["getDocumentProxy"]>>;

/**
 * Each page's text items with their font sizes and positions, as lines, page after page. Stops as soon as
 * more pages lack a text layer than OCR may read (pdf-ocr.ts), so a scan of thousands of pages is refused
 * after a few hundred cheap reads rather than after all of them.
 */
async function textLayers(pdf: Pdf, limits: ExtractionLimits): Promise<PdfLine[][]> {
  const pages: PdfLine[][] = [];
  let textless = 0;
  for (let number = 1; number <= pdf.numPages; number++) {
    const page = await pdf.getPage(number);
    const content = await page.getTextContent();
    page.cleanup();
    const items = content.items.flatMap((item) =>
      "str" in item ? [{ str: item.str, fontSize: Math.hypot(item.transform[2], item.transform[3]), y: item.transform[5], hasEOL: item.hasEOL }] : [],
    );
    const lines = pdfLines(items);
    if (!HAS_TEXT.test(lines.map((l) => l.text).join(" ")) && ++textless > limits.ocrMaxPages && limits.ocrMaxPages > 0) {
      throw tooManyScannedPages(pdf.numPages, limits.ocrMaxPages);
    }
    pages.push(lines);
  }
  return pages;
}

/** An OCR page's text without its note (the note is not the page's first line). */
function ocrText(markdown: string): string {
  return markdown.split("\n\n").slice(1).join("\n\n");
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
