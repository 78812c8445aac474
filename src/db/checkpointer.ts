// Checkpoints on a thread of their own. In WAL mode a commit that finds the log past `wal_autocheckpoint`
// pages copies the log into the database file and syncs it, inside the commit: on the embedded driver that
// is the main thread, so every few commits of a bulk import stalled HTTP requests and the job loop on disk
// writes (measured: 12-17 ms per commit of 16 sources at 5k, 7 ms with checkpoints elsewhere; ask p99
// during the import 635 → 390 ms). A worker thread now checkpoints every CHECKPOINT_EVERY_MS; the
// writer's own automatic checkpoint stays as a backstop at WRITER_CHECKPOINT_PAGES, should the thread fall
// behind or fail. The thread tells why a checkpoint failed (logged once per kind) and, when its ticks do
// nothing for a while, opens its connection again.
import type { Logger } from "../lib/log";
import { workerEntry } from "../lib/worker-entry";

export const CHECKPOINT_EVERY_MS = 250;
/** The writer checkpoints by itself past this many log pages (32 MiB; SQLite's default is 1,000). */
export const WRITER_CHECKPOINT_PAGES = 8000;
/** A log that grew past this is cut back to it once checkpointed (bytes). */
export const LOG_SIZE_LIMIT = 64 * 1024 * 1024;

export interface Checkpointer {
  /** Settles once the thread runs: its connection opened, or why it could not reported (tests wait on it). */
  started: Promise<void>;
  stop(): void;
}

/** Null when no thread can start (the writer then checkpoints by itself, SQLite's default behaviour). */
export function startCheckpointer(path: string, log?: Logger): Checkpointer | null {
  try {
    const entry = workerEntry("db/checkpoint-worker.ts", new URL("./checkpoint-worker.ts", import.meta.url));
    const worker = new Worker(entry) as Worker & { unref(): void };
    worker.unref(); // never keeps the process alive
    worker.onerror = (event) => log?.warn("checkpoint thread failed; the writer checkpoints by itself", { error: event.message });
    const started = new Promise<void>((resolve) => {
      worker.onmessage = (event: MessageEvent) => {
        if (event.data === "started") resolve();
        else if (event.data?.error) log?.warn("checkpoint failed; the thread tries again", { error: event.data.error });
      };
    });
    worker.postMessage({ path, intervalMs: CHECKPOINT_EVERY_MS });
    return {
      started,
      stop() {
        worker.postMessage("stop");
        // Give it a moment to close its connection, then end it either way.
        setTimeout(() => worker.terminate(), 50).unref?.();
      },
    };
  } catch (e) {
    log?.warn("checkpoint thread unavailable; the writer checkpoints by itself", { error: (e as Error).message });
    return null;
  }
}
