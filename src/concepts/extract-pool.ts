// Concept extraction off the main thread. Tagging a source's text costs about a millisecond of CPU, as much
// as writing it: on the main thread it held HTTP requests and the job loop's database writes back. Worker
// threads tag while the main thread writes, so ingestion uses a second core. Extraction runs in this thread
// instead (same function, same result) with `size` 0, when no thread can start, and for the requests of a
// thread that died (a thread that died after working is replaced; one that never answered is not).
// `extractWithFacts` also has the thread read what the brain knows of the concepts (facts.ts) through its own
// read-only connection, when the database is an embedded file; elsewhere the caller reads them. The same
// connection finds the pages that name a new page's title (`inwardLinks`, ingest/inward-links.ts).
import type { InwardLink } from "../links/inward-links";
import type { Logger } from "../lib/log";
import { workerEntry } from "../lib/worker-entry";
import { extractConcepts, type ExtractedConcept, type PageText } from "./extract";
import type { ConceptFacts } from "./facts";
import type { Answer, ConceptLookup, InwardLookup, Task } from "./extract-worker";

export interface Extraction {
  concepts: ExtractedConcept[];
  /** Null when they were not read in a thread (no thread, no database file, a failed read). */
  facts: ConceptFacts | null;
  /** The pages' markdown linked outward on the thread (asked with `outward`); null: the caller links them. */
  markdowns: string[] | null;
  /** With `markdowns`: the last page id whose title the thread looked at. */
  outwardSeen?: number;
}

export interface ExtractPool {
  extract(pages: PageText[], docTitle: string): Promise<ExtractedConcept[]>;
  /**
   * Extraction, and the brain's facts about the concepts found, read on the thread (null: the caller reads
   * them). `priority`: lower goes first (see QUEUED_PER_THREAD).
   */
  extractWithFacts(pages: PageText[], docTitle: string, lookup: Omit<ConceptLookup, "file">, priority?: number): Promise<Extraction>;
  /**
   * Pages of other sources that name the titles of a source's committed pages, and titles written since its
   * outward links were found that its pages name (findLateLinks); null: the caller reads them.
   */
  inwardLinks(lookup: Omit<InwardLookup, "file">, priority?: number): Promise<InwardLink[] | null>;
  /** Worker threads running (0: extraction runs in this thread). */
  readonly threads: number;
  close(): void;
}

/**
 * Requests a thread holds at once; the rest wait here, lowest priority first. Concurrent job batches all
 * asked at once and were served in turn, so they went through their stages in lockstep: all waiting on the
 * thread while the main thread idled, then all writing while the thread idled. Served oldest batch first, one
 * batch writes while the next ones are still extracted. Sixty-four (~80 ms of work): the thread hands its
 * answers back only when the main thread's event loop takes them, so it must hold enough to keep working
 * through the main thread's longest synchronous writes (a lone merge: 30-45 ms at 20k sources). Measured on
 * the import bench, three alternating rounds at 5k→15k sources: 16 → 64 gave 400/509/491 → 513/555/520
 * sources/s; with 16 the thread sat idle for a third of the time (6.4 s of 19.3).
 */
export const QUEUED_PER_THREAD = 64;

interface Request {
  id: number;
  priority: number;
  task: Task;
  resolve(answer: Answer): void;
  reject(error: Error): void;
}

/** Bun's Worker: a DOM Worker that can also be told whether it keeps the process alive. */
type BunWorker = Worker & { ref(): void; unref(): void };

interface Thread {
  worker: BunWorker;
  pending: Map<number, Request>;
  answered: boolean;
}

/** `file`: the embedded database file threads read facts from (null: a remote database). `entry` (tests): another worker script. */
export function createExtractPool(size: number, log: Logger, entry?: string, file: string | null = null): ExtractPool {
  const threads: Thread[] = [];
  /** Not yet given to a thread, sorted by (priority, id). */
  const waiting: Request[] = [];
  let nextId = 0;
  let closed = false;

  const inThisThread = (r: Request) => {
    try {
      // Reads are left to the caller: its own connection.
      r.resolve(r.task.kind === "extract" ? { concepts: extractConcepts(r.task.pages, r.task.docTitle), facts: null } : { inward: null });
    } catch (e) {
      r.reject(e as Error);
    }
  };

  function start(): Thread | null {
    let worker: BunWorker;
    try {
      worker = new Worker(entry ?? workerEntry("concepts/extract-worker.ts", new URL("./extract-worker.ts", import.meta.url))) as BunWorker;
    } catch (e) {
      log.warn("concept extraction threads unavailable; extracting in the main thread", { error: (e as Error).message });
      return null;
    }
    const thread: Thread = { worker, pending: new Map(), answered: false };
    worker.unref(); // an idle pool never keeps the process alive
    worker.onmessage = (event: MessageEvent<{ id: number; json?: string; error?: string }>) => {
      thread.answered = true;
      const request = thread.pending.get(event.data.id);
      if (!request) return;
      thread.pending.delete(event.data.id);
      if (event.data.error !== undefined) request.reject(new Error(event.data.error));
      else request.resolve(JSON.parse(event.data.json!) as Answer);
      dispatch();
      if (thread.pending.size === 0) worker.unref();
    };
    worker.onerror = (event) => {
      const at = threads.indexOf(thread);
      if (at >= 0) threads.splice(at, 1);
      worker.terminate();
      const replace = thread.answered && !closed;
      log.warn(replace ? "a concept extraction thread failed; starting another" : "concept extraction thread could not start; extracting in the main thread", {
        error: event.message,
      });
      for (const request of thread.pending.values()) inThisThread(request);
      thread.pending.clear();
      if (replace) {
        const next = start();
        if (next) threads.push(next);
      }
      dispatch();
    };
    return thread;
  }

  for (let i = 0; i < size; i++) {
    const thread = start();
    if (!thread) break;
    threads.push(thread);
  }

  /** Gives waiting requests to threads with room, lowest priority first; with no thread left, runs them here. */
  function dispatch() {
    while (waiting.length > 0) {
      if (threads.length === 0 || closed) {
        for (const request of waiting.splice(0)) inThisThread(request);
        return;
      }
      // The least busy thread: a long source does not hold up the short ones queued elsewhere.
      const thread = threads.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
      if (thread.pending.size >= QUEUED_PER_THREAD) return;
      const request = waiting.shift()!;
      thread.pending.set(request.id, request);
      thread.worker.ref(); // work in flight keeps the process alive until it answers
      thread.worker.postMessage({ id: request.id, task: request.task });
    }
  }

  function send(task: Task, priority = 0) {
    return new Promise<Answer>((resolve, reject) => {
      const request: Request = { id: nextId++, priority, task, resolve, reject };
      let at = waiting.length;
      while (at > 0 && waiting[at - 1]!.priority > priority) at--;
      waiting.splice(at, 0, request);
      dispatch();
    });
  }

  return {
    get threads() {
      return threads.length;
    },
    extract: async (pages, docTitle) => (await send(extractTask(pages, docTitle))).concepts!,
    async extractWithFacts(pages, docTitle, lookup, priority) {
      const answer = await send(extractTask(pages, docTitle, file ? { ...lookup, file } : undefined), priority);
      return { concepts: answer.concepts!, facts: answer.facts ?? null, markdowns: answer.markdowns ?? null, outwardSeen: answer.outwardSeen };
    },
    async inwardLinks(lookup, priority) {
      if (!file || threads.length === 0) return null;
      const pages = lookup.pages.map(({ slug, title, markdown }) => ({ slug, title, markdown }));
      return (await send({ kind: "inward", lookup: { ...lookup, pages, file } }, priority)).inward ?? null;
    },
    close() {
      closed = true;
      for (const request of waiting.splice(0)) request.reject(new Error("shutting down"));
      for (const thread of threads.splice(0)) {
        for (const request of thread.pending.values()) request.reject(new Error("shutting down"));
        thread.worker.terminate();
      }
    },
  };
}

const extractTask = (pages: PageText[], docTitle: string, lookup?: ConceptLookup): Task => ({
  kind: "extract",
  pages: pages.map(({ slug, title, markdown }) => ({ slug, title, markdown })), // only what the thread reads
  docTitle,
  lookup,
});
