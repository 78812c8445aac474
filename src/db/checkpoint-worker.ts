// The checkpoint thread (see checkpointer.ts): its own connection to the database file copies committed
// pages from the write-ahead log into the file, so the thread that writes does not.
import Database from "libsql";

declare const self: Worker;

let db: InstanceType<typeof Database> | null = null;
let timer: ReturnType<typeof setInterval> | null = null;

self.onmessage = (event: MessageEvent<{ path: string; intervalMs: number } | "stop">) => {
  if (event.data === "stop") {
    if (timer) clearInterval(timer);
    try {
      db?.close();
    } catch {
      // closing while the file goes away: nothing to keep
    }
    db = null;
    self.postMessage("stopped");
    return;
  }
  const { path, intervalMs } = event.data;
  // A PASSIVE checkpoint never waits for writers or readers: it copies what no reader still needs.
  db = new Database(path, { timeout: 0 } as ConstructorParameters<typeof Database>[1]);
  const checkpoint = db.prepare("PRAGMA wal_checkpoint(PASSIVE)");
  checkpoint.raw(true);
  // A connection finds the log only when it starts a read: one that opened before the writer switched the
  // file to WAL would answer every checkpoint with "not in WAL mode" (-1) for ever, so it reads the header.
  const readHeader = db.prepare("PRAGMA schema_version");
  timer = setInterval(() => {
    try {
      const [, logPages] = checkpoint.get([]) as [number, number, number];
      if (logPages === -1) readHeader.get([]);
    } catch {
      // busy (the writer's own checkpoint runs) or the file is going away: the next tick tries again
    }
  }, intervalMs);
  self.postMessage("started");
};
