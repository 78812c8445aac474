// Documents are read on a thread of their own, never on the server's: pdf.js and mammoth run synchronously
// for as long as a document takes, and a hostile one can ask for gigabytes. One document at a time, so the
// time and memory it uses are its own: the thread is terminated (and a fresh one started for the next
// document) when a document runs past its time budget or the process's resident memory grows past its
// memory budget while it is read. The decompression limits (budget.ts) are checked on the thread itself.
// A page read with OCR announces itself and gets its own time (budget.ocrPageTimeMs) from then on, so a
// scan of many pages is bounded page by page rather than refused for its length.
import type { Logger } from "../lib/log";
import { workerEntry } from "../lib/worker-entry";
import { formatBytes, type ExtractionBudget } from "./budget.ts";
import { IngestError, type IngestErrorCode } from "./errors.ts";
import { extractDocument, type ExtractInput } from "./extract.ts";
import type { ExtractedDocument } from "./types.ts";
import type { DocumentAnswer, OcrPageStarted } from "./extract-worker.ts";

/** How often resident memory is looked at while a document is read. */
const MEMORY_CHECK_MS = 50;
/** Longest a new document thread may take to load its modules before a document is sent anyway. */
const STARTUP_MS = 30_000;

export interface DocumentReader {
  /**
   * Reads a document within the budget; errors are IngestErrors (extraction_over_budget past time or memory).
   * `beforeRead` is awaited when the document's turn comes, just before it is read, not while it waits.
   */
  extract(input: ExtractInput, beforeRead?: () => Promise<void>): Promise<ExtractedDocument>;
  close(): void;
}

type BunWorker = Worker & { ref(): void; unref(): void };

interface Queued {
  input: ExtractInput;
  beforeRead?: () => Promise<void>;
  resolve(doc: ExtractedDocument): void;
  reject(error: Error): void;
}

/** `entry` (tests): another worker script. With no thread available, documents are read in this thread (limits only). */
export function createDocumentReader(budget: ExtractionBudget, log: Logger, entry?: string): DocumentReader {
  const queue: Queued[] = [];
  let worker: BunWorker | null = null;
  let busy = false;
  let closed = false;
  let threadless = false;
  let nextId = 0;
  /** Ends the document being read (on close). */
  let abortCurrent: (() => void) | null = null;

  /** Resolves once the current thread has loaded its modules (its first message), or after STARTUP_MS at most. */
  let ready: Promise<void> = Promise.resolve();

  function thread(): BunWorker | null {
    if (worker || threadless) return worker;
    try {
      const w = (worker = new Worker(entry ?? workerEntry("ingest/extract-worker.ts", new URL("./extract-worker.ts", import.meta.url))) as BunWorker);
      ready = new Promise<void>((resolve) => {
        const started = setTimeout(resolve, STARTUP_MS);
        const onReady = (event: MessageEvent<{ ready?: boolean }>) => {
          if (!event.data?.ready) return;
          clearTimeout(started);
          w.removeEventListener("message", onReady as EventListener);
          resolve();
        };
        w.addEventListener("message", onReady as EventListener);
      });
      worker.unref();
    } catch (e) {
      threadless = true;
      log.warn("the document thread is unavailable; documents are read in the main thread", { error: (e as Error).message });
    }
    return worker;
  }

  function discard(w: BunWorker) {
    w.terminate();
    if (worker === w) worker = null;
    if (!closed) thread(); // the next document does not wait for a new thread's modules
  }

  async function next() {
    if (busy || closed) return;
    const item = queue.shift();
    if (!item) return;
    busy = true;
    try {
      item.resolve(await readOne(item.input, item.beforeRead));
    } catch (e) {
      item.reject(e as Error);
    } finally {
      busy = false;
      void next();
    }
  }

  async function readOne(input: ExtractInput, beforeRead?: () => Promise<void>): Promise<ExtractedDocument> {
    const w = thread();
    if (!w) {
      await beforeRead?.();
      return extractDocument(input, budget);
    }
    await ready;
    await beforeRead?.();
    const id = nextId++;
    const baseline = process.memoryUsage.rss();
    return new Promise<ExtractedDocument>((resolve, reject) => {
      const finish = (settle: () => void) => {
        abortCurrent = null;
        clearTimeout(timer);
        clearInterval(watch);
        w.onmessage = null;
        w.onerror = null;
        if (worker === w) w.unref();
        settle();
      };
      const stop = (code: IngestErrorCode, message: string) =>
        finish(() => {
          discard(w);
          reject(new IngestError(code, message));
        });
      const overTime = (message: string) => () => stop("extraction_over_budget", message);
      let timer = setTimeout(overTime(`reading the document took longer than ${seconds(budget.timeMs)}`), budget.timeMs);
      let deadline = Date.now() + budget.timeMs;
      const allowOcrPage = (ms: number) => {
        if (Date.now() + ms <= deadline) return;
        deadline = Date.now() + ms;
        clearTimeout(timer);
        timer = setTimeout(overTime(`reading a page of the document with OCR took longer than ${seconds(ms)}`), ms);
      };
      const watch = setInterval(() => {
        if (process.memoryUsage.rss() - baseline > budget.memoryBytes)
          stop("extraction_over_budget", `reading the document needed more than ${formatBytes(budget.memoryBytes)} of memory`);
      }, MEMORY_CHECK_MS);
      w.onmessage = (event: MessageEvent<DocumentAnswer | OcrPageStarted>) => {
        const answer = event.data;
        if (answer.id !== id) return;
        if ("ocrPageMs" in answer) return allowOcrPage(answer.ocrPageMs);
        finish(() => ("code" in answer ? reject(new IngestError(answer.code as IngestErrorCode, answer.message)) : resolve({ title: answer.title, markdown: answer.markdown, ...(answer.pagePerSection ? { pagePerSection: true as const } : {}) })));
      };
      w.onerror = (event) => {
        log.warn("the document thread failed; a new one reads the next document", { error: event.message });
        stop("unreadable_document", `could not read the document: the reader failed (${event.message})`);
      };
      abortCurrent = () =>
        finish(() => {
          discard(w);
          reject(new Error("shutting down"));
        });
      w.ref(); // a document in flight keeps the process alive until it is read
      w.postMessage({ id, input, limits: budget });
    });
  }

  thread(); // started now, not with the first document: a document is not kept waiting for its modules to load
  return {
    extract(input, beforeRead) {
      if (closed) return Promise.reject(new Error("shutting down"));
      return new Promise((resolve, reject) => {
        queue.push({ input, beforeRead, resolve, reject });
        void next();
      });
    },
    close() {
      closed = true;
      for (const item of queue.splice(0)) item.reject(new Error("shutting down"));
      abortCurrent?.();
      if (worker) discard(worker);
    },
  };
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}
