// `brainbox import PATH --brain ID`: adds a folder of files (PDF, DOCX, HTML, Markdown, text; recursive) to a
// brain. It talks to a running server over HTTP (URL + API key), never to the database file: the server that
// owns the data dir keeps its job loop, limits and checks in one place, the import works the same against a
// remote or replicated deployment, and no second process writes the embedded file behind the server's back
// (the embedded driver is synchronous; a second writer only adds lock waits). Files are extracted here, so
// only text crosses the wire, 1,000 per POST .../sources/batch; each file's externalId is its path, so a
// re-run or a retry after a crash never doubles a file. Unchanged files (same content hash) are not re-sent.
import { readFile } from "node:fs/promises";
import { basename, extname } from "node:path";
import { extractDocument } from "../ingest";
import { reporter, type FileOutcome, type Totals } from "./progress";
import { contentHash, ImportState } from "./state";
import { walk } from "./walk";
import { externalIdOf } from "./external-id";
import { removeVanished, SyncError, vanished } from "./sync-deletes";

const MAX_ITEMS = 1000;

export interface ImportOptions {
  folder: string;
  brainId: string;
  url: string;
  key: string;
  stateFile: string;
  force?: boolean;
  /** Also remove the sources of files deleted from the folder since an earlier import. */
  sync?: boolean;
  tty?: boolean;
  /** Largest batch body sent (the server refuses bodies over BRAINBOX_MAX_BODY_BYTES, 1 MiB by default). */
  maxBatchBytes?: number;
  out?: (line: string) => void;
}

export class ImportError extends Error {}

interface Pending {
  rel: string;
  hash: string;
  item: { title: string; content: string; externalId: string };
  bytes: number;
}

export { externalIdOf };

export async function runImport(opts: ImportOptions): Promise<Totals> {
  await checkAccess(opts); // before any file is read: a wrong key fails even when nothing changed
  const report = reporter(opts.tty ?? false, opts.out);
  const state = new ImportState(opts.stateFile);
  const maxBytes = opts.maxBatchBytes ?? 900_000;
  let batch: Pending[] = [];
  let batchBytes = 0;

  const flush = async () => {
    if (batch.length === 0) return;
    const sending = batch;
    batch = [];
    batchBytes = 0;
    for (const outcome of await send(opts, sending)) {
      if (outcome.status === "imported") state.record(outcome.file, sending.find((p) => p.rel === outcome.file)!.hash);
      report.file(outcome);
    }
    state.save();
  };

  const present = new Set<string>();
  const unreadable: string[] = [];
  for await (const found of walk(opts.folder)) {
    present.add(found.rel);
    if ("skipped" in found && found.skipped.startsWith("folder not readable")) unreadable.push(found.rel);
    report.found();
    if ("skipped" in found) {
      report.file({ file: found.rel, status: "skipped", reason: found.skipped });
      continue;
    }
    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(await readFile(found.path)); // a plain Uint8Array: the PDF reader refuses a Buffer
    } catch (e) {
      report.file({ file: found.rel, status: "skipped", reason: `not readable (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})` });
      continue;
    }
    const hash = contentHash(bytes);
    if (!opts.force && state.unchanged(found.rel, hash)) {
      report.file({ file: found.rel, status: "unchanged" });
      continue;
    }
    let doc;
    try {
      doc = await extractDocument({ bytes, contentType: "", filename: basename(found.path) });
    } catch (e) {
      report.file({ file: found.rel, status: "skipped", reason: (e as Error).message });
      continue;
    }
    const title = (doc.title || basename(found.path, extname(found.path))).slice(0, 500);
    const item = { title, content: doc.markdown, externalId: externalIdOf(found.rel) };
    const size = Buffer.byteLength(JSON.stringify(item)) + 1;
    if (batch.length && (batch.length >= MAX_ITEMS || batchBytes + size > maxBytes)) await flush();
    batch.push({ rel: found.rel, hash, item, bytes: size });
    batchBytes += size;
  }
  await flush();
  if (opts.sync) {
    try {
      await removeVanished({ request: (path, method = "GET") => request(opts, path, undefined, method) }, state, vanished(state, present, unreadable), (o) => report.file(o));
    } catch (e) {
      if (e instanceof SyncError) throw new ImportError(e.message);
      throw e;
    }
  }
  report.done();
  return report.totals;
}

/** Posts one batch; a body too large for the server is split in halves until it fits. */
async function send(opts: ImportOptions, items: Pending[]): Promise<FileOutcome[]> {
  const res = await post(opts, items);
  if (res.status === 413 && items.length > 1) {
    const half = Math.ceil(items.length / 2);
    return [...(await send(opts, items.slice(0, half))), ...(await send(opts, items.slice(half)))];
  }
  if (res.status === 413) return [{ file: items[0]!.rel, status: "failed", reason: "the file's text is larger than the server accepts in one request" }];
  const body = (await res.json().catch(() => null)) as any;
  if (res.status !== 200 || !Array.isArray(body?.results)) {
    throw new ImportError(`the server refused the batch: ${res.status} ${body?.error?.message ?? JSON.stringify(body)}`);
  }
  return items.map((p, i): FileOutcome => {
    const r = body.results[i];
    if (r?.source) return { file: p.rel, status: "imported", sourceId: r.source.id, created: r.created };
    return { file: p.rel, status: "failed", reason: r?.error?.message ?? "no result for this item" };
  });
}

/** Reads the brain with the key: a key the server refuses, or a brain it cannot see, stops the import. */
async function checkAccess(opts: ImportOptions): Promise<void> {
  const res = await request(opts, "");
  if (res.ok) return;
  const body = (await res.json().catch(() => null)) as any;
  const said = body?.error?.message ?? `HTTP ${res.status}`;
  if (res.status === 401) throw new ImportError(`the server refused the API key: 401 ${said}`);
  if (res.status === 403 || res.status === 404) throw new ImportError(`brain ${opts.brainId} cannot be reached with this key: ${res.status} ${said}`);
  throw new ImportError(`the server did not answer as a Brainbox server: ${res.status} ${said}`);
}

const post = (opts: ImportOptions, items: Pending[]) => request(opts, "/sources/batch", JSON.stringify({ sources: items.map((p) => p.item) }));

/**
 * A GET (no body) or a POST under the brain's path; a few retries with backoff when the server cannot be
 * reached (restarting, say), then the import stops.
 */
async function request(opts: ImportOptions, path: string, body?: string, method?: "GET" | "DELETE"): Promise<Response> {
  const url = `${opts.url.replace(/\/+$/, "")}/api/v1/brains/${encodeURIComponent(opts.brainId)}${path}`;
  const headers: Record<string, string> = { authorization: `Bearer ${opts.key}` };
  if (body !== undefined) headers["content-type"] = "application/json";
  const init: RequestInit = { method: method ?? (body === undefined ? "GET" : "POST"), headers, body };
  for (let attempt = 1; ; attempt++) {
    try {
      const res = await fetch(url, init);
      if (res.status < 500 || attempt >= 5) return res;
    } catch (e) {
      if (attempt >= 5) throw new ImportError(`cannot reach ${opts.url}: ${(e as Error).message}`);
    }
    await Bun.sleep(250 * 2 ** attempt);
  }
}
