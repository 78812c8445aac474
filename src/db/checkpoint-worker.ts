// The checkpoint thread (see checkpointer.ts): its own connection to the database file copies committed
// pages from the write-ahead log into the file, so the thread that writes does not.
import Database from "libsql";

declare const self: Worker;

/** Ticks in a row without a checkpoint (an error, or "not in WAL mode") before the connection is reopened. */
const REOPEN_AFTER_TICKS = 8;

type CheckpointConnection = { db: InstanceType<typeof Database>; checkpoint: { get(args: unknown[]): unknown }; readHeader: { get(args: unknown[]): unknown } };

let open: CheckpointConnection | null = null;
let timer: ReturnType<typeof setInterval> | null = null;

function connect(path: string): CheckpointConnection {
  // A PASSIVE checkpoint never waits for writers or readers: it copies what no reader still needs.
  const db = new Database(path, { timeout: 0 } as ConstructorParameters<typeof Database>[1]);
  const checkpoint = db.prepare("PRAGMA wal_checkpoint(PASSIVE)");
  checkpoint.raw(true);
  return { db, checkpoint, readHeader: db.prepare("PRAGMA schema_version") };
}

function close() {
  try {
    open?.db.close();
  } catch {
    // closing while the file goes away: nothing to keep
  }
  open = null;
}

self.onmessage = (event: MessageEvent<{ path: string; intervalMs: number } | "stop">) => {
  if (event.data === "stop") {
    if (timer) clearInterval(timer);
    close();
    self.postMessage("stopped");
    return;
  }
  const { path, intervalMs } = event.data;
  let stalled = 0;
  const reported = new Set<string>();
  const report = (e: unknown) => {
    // Each kind of failure is told once (the parent logs it); the next tick tries again. Busy is not a
    // failure: another checkpoint (the writer's own) held the log for that tick.
    const message = (e as Error)?.message ?? String(e);
    if (/database is locked|SQLITE_BUSY/i.test(message)) return;
    if (!reported.has(message) && reported.size < 5) {
      reported.add(message);
      self.postMessage({ error: message });
    }
  };
  try {
    open = connect(path);
  } catch (e) {
    report(e); // the file cannot be opened yet: each tick tries
  }
  timer = setInterval(() => {
    try {
      open ??= connect(path);
      const [, logPages] = open.checkpoint.get([]) as [number, number, number];
      if (logPages !== -1) {
        stalled = 0;
        return;
      }
      // A connection finds the log only when it starts a read: one that opened before the writer switched the
      // file to WAL would answer every checkpoint with "not in WAL mode" (-1) for ever, so it reads the header.
      open.readHeader.get([]);
    } catch (e) {
      report(e); // busy (the writer's own checkpoint runs: not told), or the file cannot be opened
    }
    // Still nothing after a while (whatever the cause: a connection that kept a stale view of the file):
    // a fresh connection, as a restart would give.
    if (++stalled >= REOPEN_AFTER_TICKS) {
      stalled = 0;
      close();
    }
  }, intervalMs);
  self.postMessage("started");
};
