// Turns a source into one markdown document: notes and text as given, links fetched (SSRF-safe), files
// read from storage, both extracted to markdown.
import type { Source } from "../../db/schema";
import { safeFetch, type AllowList, type DocumentReader } from "../../ingest";
import type { BlobStorage } from "../../storage";

export interface SourceDocument {
  title: string;
  markdown: string;
  /** Where the content came from, shown on the pages. */
  origin?: string;
  /** Each top-level section a page of its own (a workbook's sheets). */
  pagePerSection?: true;
}

export interface DocumentDeps {
  storage: BlobStorage;
  allowHosts: AllowList;
  fetchTimeoutMs: number;
  fetchMaxBytes: number;
  /** Reads documents off this thread, within the extraction budget. */
  reader: DocumentReader;
}

/**
 * Runs one extraction; the job wraps it in a durable mark (extraction-marks.ts), set by `beforeRead` when the
 * document's turn on the reader comes.
 */
export type GuardRead = <T>(extract: (beforeRead: () => Promise<void>) => Promise<T>) => Promise<T>;

const unguarded: GuardRead = (extract) => extract(async () => undefined);

/**
 * Only the extraction is guarded: a fetch or a storage read cannot take the process down, so a server killed
 * while it waits for the network, or while the document waits its turn on the reader, must not count against it.
 */
export async function loadDocument(deps: DocumentDeps, source: Source, guard: GuardRead = unguarded): Promise<SourceDocument> {
  switch (source.type) {
    case "note":
    case "text":
      return { title: source.title, markdown: source.content ?? "", origin: source.url ?? undefined };
    case "link": {
      const fetched = await safeFetch(source.url!, {
        allowHosts: deps.allowHosts,
        timeoutMs: deps.fetchTimeoutMs,
        maxBytes: deps.fetchMaxBytes,
      });
      const doc = await guard((beforeRead) => deps.reader.extract({ bytes: fetched.body, contentType: fetched.contentType, url: fetched.url }, beforeRead));
      // A caller-given title wins; a link added without one is titled by its URL until fetched.
      const title = source.title && source.title !== source.url ? source.title : doc.title;
      return { title, markdown: doc.markdown, origin: fetched.url, ...(doc.pagePerSection ? { pagePerSection: doc.pagePerSection } : {}) };
    }
    case "file": {
      const bytes = await deps.storage.read(source.storageKey!);
      const doc = await guard((beforeRead) => deps.reader.extract({ bytes, contentType: source.contentType ?? "", filename: source.filename ?? undefined }, beforeRead));
      return { title: doc.title || source.title, markdown: doc.markdown, ...(doc.pagePerSection ? { pagePerSection: doc.pagePerSection } : {}) };
    }
  }
}
