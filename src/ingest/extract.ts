import { DEFAULT_EXTRACTION_BUDGET, type ExtractionLimits } from "./budget.ts";
import { decodeText } from "./decode-text.ts";
import { detectKind, type DocumentKind } from "./detect-type.ts";
import { IngestError } from "./errors.ts";
import { extractCsv } from "./extract-csv.ts";
import { extractDocx } from "./extract-docx.ts";
import { extractEpub } from "./extract-epub.ts";
import { extractOds } from "./extract-ods.ts";
import { extractOdt } from "./extract-odt.ts";
import { extractPptx } from "./extract-pptx.ts";
import { extractXlsx } from "./extract-xlsx.ts";
import { extractHtml } from "./extract-html.ts";
import { extractImage } from "./extract-image.ts";
import { imageFormatOf } from "./ocr/decode-image.ts";
import { extractPdf } from "./extract-pdf.ts";
import { extractMarkdown, extractPlainText } from "./extract-text.ts";
import { normalizeMarkdown } from "../lib/markdown-blocks.ts";
import type { ExtractedDocument } from "./types.ts";

const EMPTY_HINTS: Partial<Record<DocumentKind, string>> = {
  pdf: " (no text layer, and OCR found no text in its pages' images)",
  html: " (a page rendered by JavaScript has no text to fetch)",
};
const OCR_OFF_HINT = " (a scanned PDF needs OCR, which this server has turned off: BRAINBOX_OCR_MAX_PAGES=0)";

export type ExtractInput = { bytes: Uint8Array; contentType: string; filename?: string; url?: string };

/**
 * Any supported document (HTML, PDF, DOCX, XLSX, ODS, CSV, TSV, PPTX, EPUB, ODT, Markdown, plain text, an image
 * read with OCR) to a title and Markdown.
 * Errors are always IngestError: `unsupported_type`, `unreadable_document`, `empty_document`, and
 * `document_too_large` when it decompresses beyond `limits` (budget.ts). Runs where it is called: the server
 * reads documents on its document thread (extract-thread.ts), which also bounds time and memory.
 */
export async function extractDocument(input: ExtractInput, limits: ExtractionLimits = DEFAULT_EXTRACTION_BUDGET): Promise<ExtractedDocument> {
  const source = { url: input.url, filename: input.filename };
  const kind = detectKind(input, limits.maxEntries);
  let extracted: ExtractedDocument;
  try {
    switch (kind) {
      case "pdf":
        extracted = await extractPdf(input.bytes, source, limits);
        break;
      case "docx":
        extracted = await extractDocx(input.bytes, source, limits);
        break;
      case "xlsx":
        extracted = await extractXlsx(input.bytes, source, limits);
        break;
      case "ods":
        extracted = extractOds(input.bytes, source, limits);
        break;
      case "csv":
      case "tsv":
        extracted = extractCsv(input.bytes, input.contentType, source, limits, kind === "tsv");
        break;
      case "pptx":
        extracted = extractPptx(input.bytes, source, limits);
        break;
      case "epub":
        extracted = extractEpub(input.bytes, source, limits);
        break;
      case "odt":
        extracted = extractOdt(input.bytes, source, limits);
        break;
      case "html":
        extracted = extractHtml(decodeText(input.bytes, input.contentType, { html: true }), source);
        break;
      case "markdown":
        extracted = extractMarkdown(decodeText(input.bytes, input.contentType), source);
        break;
      case "text":
        extracted = extractPlainText(decodeText(input.bytes, input.contentType), source);
        break;
      case "image":
        extracted = await extractImage(input.bytes, imageFormatOf(input.bytes)!, source, limits);
        break;
    }
  } catch (error) {
    if (error instanceof IngestError) throw error;
    // A parser bug or hostile input must fail this document, not the job runner.
    const why = error instanceof Error ? error.message : String(error);
    throw new IngestError("unreadable_document", `could not read the ${kind.toUpperCase()} document: ${why}`, { cause: error });
  }
  const markdown = normalizeMarkdown(extracted.markdown);
  if (!/[\p{L}\p{N}]/u.test(markdown)) {
    throw new IngestError("empty_document", `the ${kind.toUpperCase()} document contains no text${kind === "pdf" && limits.ocrMaxPages === 0 ? OCR_OFF_HINT : (EMPTY_HINTS[kind] ?? "")}`);
  }
  return { title: extracted.title, markdown, ...(extracted.pagePerSection ? { pagePerSection: true as const } : {}) };
}
