// A consistent copy of the embedded database file while the server writes to it. VACUUM INTO runs on a
// thread of its own: the embedded driver is synchronous, so on the main thread a copy of a large database
// would stop HTTP requests and the job loop for as long as it takes.
import { workerEntry } from "../lib/worker-entry";

export interface Snapshot {
  /** drizzle's journal timestamp of the last migration the copy holds (0: none). */
  lastMigration: number;
}

/** Copies the database file `source` into the new file `dest` (which must not exist yet). */
export function snapshotDatabase(source: string, dest: string): Promise<Snapshot> {
  const entry = workerEntry("db/snapshot-worker.ts", new URL("./snapshot-worker.ts", import.meta.url));
  const worker = new Worker(entry);
  return new Promise<Snapshot>((resolve, reject) => {
    worker.onmessage = (event: MessageEvent<{ ok: boolean; lastMigration?: number; error?: string }>) => {
      worker.terminate();
      if (event.data.ok) resolve({ lastMigration: event.data.lastMigration ?? 0 });
      else reject(new Error(`could not copy the database: ${event.data.error}`));
    };
    worker.onerror = (event) => {
      worker.terminate();
      reject(new Error(`could not copy the database: ${event.message}`));
    };
    worker.postMessage({ source, dest });
  });
}
