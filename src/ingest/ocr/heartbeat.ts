// The document thread's watchdog (extract-thread.ts) gives a document a fixed time; a scan of many pages
// needs more, but page by page, so each page read with OCR announces itself and the watchdog allows it
// its own time from then. Outside a document thread nobody listens and the announcement is dropped.

type Listener = (pageTimeMs: number) => void;

let listener: Listener | null = null;

export function onOcrPage(listen: Listener | null): void {
  listener = listen;
}

export function announceOcrPage(pageTimeMs: number): void {
  listener?.(pageTimeMs);
}
