// The document thread's script (extract-thread.ts): one document in, its title and Markdown (or the
// IngestError it failed with) out. Nothing is shared; the thread may be terminated at any point.
import { extractDocument, type ExtractInput } from "./extract.ts";
import type { ExtractionLimits } from "./budget.ts";
import { isIngestError } from "./errors.ts";
import { onOcrPage } from "./ocr/heartbeat.ts";

declare const self: Worker;

export interface DocumentTask {
  id: number;
  input: ExtractInput;
  limits: ExtractionLimits;
}

export type DocumentAnswer = { id: number; title: string; markdown: string; pagePerSection?: true } | { id: number; code: string; message: string };

/** Sent when a page starts to be read with OCR: the watchdog allows the document `ocrPageMs` more from then. */
export type OcrPageStarted = { id: number; ocrPageMs: number };

self.onmessage = async (event: MessageEvent<DocumentTask>) => {
  const { id, input, limits } = event.data;
  onOcrPage((ocrPageMs) => self.postMessage({ id, ocrPageMs } satisfies OcrPageStarted));
  try {
    const doc = await extractDocument(input, limits);
    self.postMessage({ id, title: doc.title, markdown: doc.markdown, ...(doc.pagePerSection ? { pagePerSection: true as const } : {}) } satisfies DocumentAnswer);
  } catch (e) {
    // extractDocument throws only IngestErrors; anything else is a bug reported as unreadable.
    const code = isIngestError(e) ? e.code : "unreadable_document";
    self.postMessage({ id, code, message: (e as Error)?.message ?? String(e) } satisfies DocumentAnswer);
  }
};

// Its modules are loaded: a document's time budget starts from here, not from the thread's start.
self.postMessage({ ready: true });
