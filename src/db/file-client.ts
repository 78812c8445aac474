// The embedded database file through @libsql/client's own file client (a `file:` URL under
// drizzle-orm/libsql): the same driver and the same code path as a remote libSQL server. What this adds uses
// the client's public API only:
// - one connection, and calls take turns on it: an interactive transaction holds it until it settles and
//   other calls wait (the driver is synchronous: a second connection would only add lock waits, client.ts);
// - the connection's pragmas, set again whenever the client may have opened a new connection;
// - after SQLITE_BUSY a fresh connection, and one more try of the whole statement or batch;
// - a change version (change-version.ts): other processes' commits are read from SQLite's data_version.
import Database from "libsql";
import { pathToFileURL } from "node:url";
import { createClient, LibsqlError, type Client, type InArgs, type InStatement, type Transaction, type TransactionMode } from "@libsql/client";
import { executeOn, withChangeVersion, type BrainboxClient } from "./change-version";
import type { StorageHealth } from "../lib/storage-health";
import { LOG_SIZE_LIMIT, startCheckpointer, WRITER_CHECKPOINT_PAGES } from "./checkpointer";
import type { Logger } from "../lib/log";

/** Page cache per connection, KiB. */
const CACHE_KIB = 65_536;
/** How stale another process's commit may be when a caller trusts an unchanged version (bounded, documented). */
export const DATA_VERSION_CHECK_MS = 1;
/** The pause before a statement that met SQLITE_BUSY runs again (doubled at most, at random: two replicas do not retry in step). */
const BUSY_RETRY_MS = 50;
const isBusy = (error: unknown) => /SQLITE_BUSY|database is locked/.test(`${(error as { code?: string })?.code ?? ""} ${(error as Error)?.message ?? ""}`);

/** Per connection, so they are set on every connection the client opens. */
function connectionPragmas(checkpointThread: boolean): string {
  return [
    // A page cache that holds a growing brain's hot index pages (SQLite's default is 2 MiB): grown on use.
    `PRAGMA cache_size=-${CACHE_KIB}`,
    // In WAL mode NORMAL syncs at checkpoints only and survives a process crash; FULL syncs at every commit.
    "PRAGMA synchronous=NORMAL",
    // A checkpoint thread does the copying (checkpointer.ts); the writer's own checkpoint stays as a backstop.
    ...(checkpointThread ? [`PRAGMA wal_autocheckpoint=${WRITER_CHECKPOINT_PAGES}`, `PRAGMA journal_size_limit=${LOG_SIZE_LIMIT}`] : []),
  ].join(";\n");
}

/** Calls take turns: each runs once the ones before it (and a transaction holding the connection) are done. */
function turns() {
  let last: Promise<unknown> = Promise.resolve();
  const settled = () => undefined;
  return {
    take<T>(work: () => Promise<T>): Promise<T> {
      const result = last.then(work);
      last = result.then(settled, settled);
      return result;
    },
    /** Resolves, on its turn, with the function that ends the hold. */
    hold(): Promise<() => void> {
      let end!: () => void;
      const ended = new Promise<void>((resolve) => (end = resolve));
      const turn = last.then(() => end);
      last = ended;
      return turn;
    },
  };
}

/**
 * SQLite's data_version, read on a connection of its own: it changes whenever another connection commits to
 * the file (this client's or another process's). Read at most once per DATA_VERSION_CHECK_MS (it starts a
 * read transaction).
 */
function dataVersionWatch(path: string, timeoutMs: number) {
  let db: InstanceType<typeof Database> | null = null;
  let statement: ReturnType<InstanceType<typeof Database>["prepare"]> | null = null;
  let seen = -1;
  let readAt = -Infinity;
  const close = () => {
    statement = null;
    try {
      db?.close();
    } catch {
      // nothing useful to do while tearing down
    }
    db = null;
  };
  return {
    /** Whether the file may have changed since the last call. */
    changed(): boolean {
      const now = performance.now();
      if (now - readAt < DATA_VERSION_CHECK_MS) return false;
      readAt = now;
      try {
        if (!statement) {
          db = new Database(path, { timeout: timeoutMs } as ConstructorParameters<typeof Database>[1]);
          statement = db.prepare("PRAGMA data_version").raw(true);
        }
        const current = Number((statement.get([]) as unknown[])[0]);
        if (current === seen) return false;
        seen = current;
        return true;
      } catch {
        // A failed read may leave the statement mid-step: open a fresh connection next time.
        close();
        return true;
      }
    },
    close,
  };
}

export function openFileClient(path: string, opts: { timeoutMs: number; checkpointThread?: boolean; log?: Logger; storage?: StorageHealth }): BrainboxClient {
  const client = createClient({ url: pathToFileURL(path).href, concurrency: 1, timeout: opts.timeoutMs });
  // Started once the file exists; until the migrations put it in WAL mode its checkpoints do nothing.
  const checkpointer = opts.checkpointThread ? startCheckpointer(path, opts.log) : null;
  const pragmas = connectionPragmas(checkpointer !== null);
  const setPragmas = () =>
    client.executeMultiple(pragmas).catch((e) => opts.log?.warn("could not set the connection's pragmas", { error: (e as Error).message }));
  const queue = turns();
  void queue.take(setPragmas);

  /**
   * After a failure: libsql leaves a statement that failed with SQLITE_BUSY unfinished, so the connection
   * keeps a transaction open, later writes report success but never commit, and it holds the write lock
   * (found with the remote-database stand-in): a fresh connection is the cure. Any other failure may have
   * made the client drop its connection (one it could not roll back): the pragmas are set again.
   */
  const recover = async (error: unknown) => {
    if (isBusy(error)) await client.reconnect(); // void in its type; the file client's is async
    await setPragmas();
  };
  const onTurn = <T>(work: () => Promise<T>): Promise<T> =>
    queue.take(() =>
      work().catch(async (e) => {
        await recover(e).catch(() => undefined);
        throw e;
      }),
    );
  /**
   * A statement or batch that met SQLITE_BUSY wrote nothing, and the connection has been replaced: it runs once
   * more, on a fresh snapshot, after a short pause (two replicas on one file: a source's write met it at once
   * while the other was writing, and its job ran again). Never a statement of an open transaction.
   */
  const onTurnRetryingBusy = <T>(work: () => Promise<T>): Promise<T> =>
    onTurn(work).catch(async (e) => {
      if (!isBusy(e)) throw e;
      await Bun.sleep(BUSY_RETRY_MS * (1 + Math.random()));
      return onTurn(work);
    });

  const holdingTransaction = async (mode?: TransactionMode): Promise<Transaction> => {
    const end = await queue.hold();
    let tx: Transaction;
    try {
      tx = await client.transaction(mode);
    } catch (e) {
      await recover(e).catch(() => undefined);
      end();
      throw e;
    }
    const settle = <T>(done: T) => {
      end();
      return done;
    };
    return {
      execute: (stmt: InStatement | string, args?: InArgs) => executeOn(tx, stmt, args),
      batch: (stmts: InStatement[]) => tx.batch(stmts),
      executeMultiple: (sql: string) => tx.executeMultiple(sql),
      rollback: () => tx.rollback().finally(() => settle(undefined)),
      commit: () => tx.commit().finally(() => settle(undefined)),
      close() {
        try {
          tx.close();
        } finally {
          settle(undefined);
        }
      },
      get closed() {
        return tx.closed;
      },
    } as Transaction;
  };

  const oneAtATime = {
    get protocol() {
      return client.protocol;
    },
    get closed() {
      return client.closed;
    },
    execute: (stmt: InStatement | string, args?: InArgs) => onTurnRetryingBusy(() => executeOn(client, stmt, args)),
    batch: (stmts: InStatement[], mode?: TransactionMode) => onTurnRetryingBusy(() => client.batch(stmts, mode)),
    migrate: (stmts: InStatement[]) => onTurn(() => client.migrate(stmts)),
    executeMultiple: (sql: string) => onTurn(() => client.executeMultiple(sql)),
    transaction: holdingTransaction,
    sync: () => Promise.reject(new LibsqlError("sync() needs an embedded replica; this is a plain database file", "SYNC_NOT_SUPPORTED")),
    reconnect: () => queue.take(() => Promise.resolve(client.reconnect()).then(setPragmas)),
    close: () => client.close(),
  } as unknown as Client;

  const watch = dataVersionWatch(path, opts.timeoutMs);
  return withChangeVersion(oneAtATime, {
    storage: opts.storage,
    location: path,
    othersWrote: () => watch.changed(),
    // `SELECT 1` touches no table, so on the file it proves only that the client is open: ask that directly,
    // without waiting behind a transaction that holds the connection.
    ping: () => (client.closed ? Promise.reject(new LibsqlError("The client is closed", "CLIENT_CLOSED")) : Promise.resolve()),
    onClose() {
      checkpointer?.stop();
      watch.close();
    },
  });
}
