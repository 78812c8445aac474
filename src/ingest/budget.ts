// How much a document may cost to read: the limits every extractor checks while it decompresses, before the
// memory is spent, and the time and memory the document thread (extract-thread.ts) may use for one document.
// A document over any of them fails for good with `document_too_large` or `extraction_over_budget`.
import { IngestError } from "./errors.ts";

export interface ExtractionLimits {
  /** Everything a document decompresses to: a zip's entries together, a PDF's compressed streams together. */
  maxExpandedBytes: number;
  /** One zip entry, or one PDF stream, decompressed. */
  maxPartBytes: number;
  /** Entries of a zip container (DOCX and every zip-based format). */
  maxEntries: number;
  /** Pages of a PDF. */
  maxPages: number;
  /** Rows of a spreadsheet or CSV, all its sheets together. */
  maxRows: number;
  /** Pages read with OCR in one document (scanned PDF pages, images); 0 turns OCR off. */
  ocrMaxPages: number;
  /** Pixels of one image read with OCR; a larger one is refused before it is decoded. */
  ocrMaxPixels: number;
  /** Wall time of one page read with OCR. */
  ocrPageTimeMs: number;
}

export interface ExtractionBudget extends ExtractionLimits {
  /** Wall time of one document on the document thread. */
  timeMs: number;
  /** Growth of the process's resident memory while the document thread reads one document. */
  memoryBytes: number;
}

const MB = 1024 * 1024;

export const DEFAULT_EXTRACTION_BUDGET: ExtractionBudget = {
  maxExpandedBytes: 200 * MB,
  maxPartBytes: 100 * MB,
  maxEntries: 10_000,
  maxPages: 10_000,
  maxRows: 50_000,
  ocrMaxPages: 200,
  ocrMaxPixels: 40_000_000,
  ocrPageTimeMs: 180_000,
  timeMs: 120_000,
  memoryBytes: 1024 * MB,
};

/** A size for people: "200 MB", "1.5 GB". */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * MB) return `${+(bytes / (1024 * MB)).toFixed(1)} GB`;
  if (bytes >= MB) return `${+(bytes / MB).toFixed(1)} MB`;
  return `${+(bytes / 1024).toFixed(1)} KB`;
}

/** `document_too_large`, the message saying which limit, in plain words. */
export function tooLarge(message: string): IngestError {
  return new IngestError("document_too_large", message);
}

/**
 * Counts what a document decompresses to, part by part; throws `document_too_large` as soon as a part or
 * the whole is over its limit. `room(part)` is how much the next part may still produce.
 */
export class ExpansionMeter {
  private total = 0;

  constructor(
    private readonly limits: Pick<ExtractionLimits, "maxExpandedBytes" | "maxPartBytes">,
    private readonly partName: string,
  ) {}

  /** Bytes the next part may decompress to before one of the limits is crossed. */
  room(): number {
    return Math.min(this.limits.maxPartBytes, this.limits.maxExpandedBytes - this.total);
  }

  /** Called when a part decompressed to more than room() allowed. */
  overflow(name: string): never {
    if (this.room() === this.limits.maxPartBytes) throw tooLarge(`one ${this.partName} of the document (${name}) expands to more than ${formatBytes(this.limits.maxPartBytes)}`);
    throw tooLarge(`the document expands to more than ${formatBytes(this.limits.maxExpandedBytes)}`);
  }

  add(bytes: number): void {
    this.total += bytes;
  }
}

/** The budget from the server's settings (config.ts names them BRAINBOX_EXTRACT_*). */
export function extractionBudgetOf(config: {
  extractMaxExpandedBytes: number;
  extractMaxPartBytes: number;
  extractMaxEntries: number;
  extractMaxPages: number;
  extractMaxRows: number;
  extractTimeMs: number;
  extractMemoryBytes: number;
  ocrMaxPages: number;
  ocrMaxPixels: number;
  ocrPageTimeMs: number;
}): ExtractionBudget {
  return {
    maxExpandedBytes: config.extractMaxExpandedBytes,
    maxPartBytes: config.extractMaxPartBytes,
    maxEntries: config.extractMaxEntries,
    maxPages: config.extractMaxPages,
    maxRows: config.extractMaxRows,
    timeMs: config.extractTimeMs,
    memoryBytes: config.extractMemoryBytes,
    ocrMaxPages: config.ocrMaxPages,
    ocrMaxPixels: config.ocrMaxPixels,
    ocrPageTimeMs: config.ocrPageTimeMs,
  };
}
