import { tooLarge, type ExtractionLimits } from "./budget.ts";
import { IngestError, isIngestError } from "./errors.ts";
import { checkPdfStreams } from "./pdf-streams.ts";
import { escapePlainText } from "./extract-text.ts";
import type { DocumentSource, ExtractedDocument as Extracted } from "./types.ts";
import { firstLineTitle, pickTitle, titleFromName } from "./titles.ts";
import { pdfLines, reflowPdfPage } from "./pdf-reflow.ts";

/**
 * Text of every page in paragraphs (pdf-reflow.ts; a blank line between pages); title from metadata, first line
 * or file name. Its streams are measured first (pdf-streams.ts) and its pages counted before any is read.
 */
export async function extractPdf(bytes: Uint8Array, source: DocumentSource, limits: ExtractionLimits): Promise<Extracted> {
  checkPdfStreams(bytes, limits);
  // Loaded on first use: pdf.js is large and most brains never see a PDF.
  const { getDocumentProxy, extractTextItems, getMeta } = await import("unpdf");
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>> | undefined;
  try {
    // pdf.js may detach the buffer it is given: hand it a copy. (This pdf.js build has no eval path for fonts.)
    pdf = await getDocumentProxy(bytes.slice(), { verbosity: 0 });
    if (pdf.numPages > limits.maxPages) {
      throw tooLarge(`the PDF has more than ${limits.maxPages.toLocaleString("en-US")} pages (${pdf.numPages.toLocaleString("en-US")})`);
    }
    // Each page's text items with their font sizes and positions, as lines.
    const pages = (await extractTextItems(pdf)).items.map(pdfLines);
    const info = (await getMeta(pdf).catch(() => undefined))?.info as { Title?: unknown } | undefined;
    const text = pages.map((lines) => lines.map((l) => l.text).join("\n").trim()).filter(Boolean).join("\n\n");
    const metaTitle = typeof info?.Title === "string" ? info.Title : "";
    return {
      title: pickTitle(metaTitle, firstLineTitle(text), titleFromName(source.filename, source.url)),
      markdown: escapePlainText(pages.map(reflowPdfPage).filter(Boolean).join("\n\n")),
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

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
