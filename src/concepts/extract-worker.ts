// A worker thread that extracts concepts (the NLP library's tagging, the CPU-heavy part of ingesting a
// source) for the pool in extract-pool.ts. One message in, one out; nothing is shared.
import { extractConcepts, type PageText } from "./extract";

declare const self: Worker;

interface Request {
  id: number;
  pages: PageText[];
  docTitle: string;
}

self.onmessage = (event: MessageEvent<Request>) => {
  const { id, pages, docTitle } = event.data;
  try {
    self.postMessage({ id, concepts: extractConcepts(pages, docTitle) });
  } catch (e) {
    self.postMessage({ id, error: (e as Error)?.message ?? String(e) });
  }
};
