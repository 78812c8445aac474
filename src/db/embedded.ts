// The embedded database file as a libSQL `Client`, on the same native driver (`libsql`) that
// @libsql/client uses, with prepared statements kept per connection.
//
// Why: @libsql/client's file client prepares every statement again and reads its column list twice per
// call; measured, that was ~55% of the CPU of a drizzle query (bench-edge, issue 15). Caching the prepared
// statement and its columns per SQL text removes both. Everything else copies @libsql/client 0.18's
// file client so drizzle-orm/libsql and code reading `client.execute(...).rows` see the same results:
// rows indexable by position and by column name, integers as numbers, BLOBs as ArrayBuffers, errors as
// LibsqlError with the SQLite codes, one connection (a transaction holds it; other calls wait).
//
// It also tells when the database may have changed (`changeVersion`), so callers can keep what they read
// (e.g. valid API keys) until then: see ChangeVersion below.
import Database from "libsql";
import { LibsqlError, type Client, type InArgs, type InStatement, type ResultSet, type Transaction, type TransactionMode } from "@libsql/client";
import { mapError, resultSet, rowBuilder, toArgs } from "./embedded-values";
import { kindOf, oneRowOf, type OneRow, type StatementKind } from "./statements";
import { LOG_SIZE_LIMIT, startCheckpointer, WRITER_CHECKPOINT_PAGES } from "./checkpointer";
import type { Logger } from "../lib/log";
import { isStorageFull } from "../lib/db-errors";
import type { StorageHealth } from "../lib/storage-health";
import { keepRecent } from "../lib/recent-map";

type NativeDb = InstanceType<typeof Database>;
type NativeStatement = ReturnType<NativeDb["prepare"]>;
interface Prepared {
  statement: NativeStatement;
  /** Null when the statement returns no rows (INSERT/UPDATE/DDL without RETURNING). */
  columns: string[] | null;
  columnTypes: string[];
  /** Builds a result row from the native row (null without columns). */
  toRow: ((raw: unknown[]) => Record<string | number, unknown>) | null;
  kind: StatementKind;
  /** When the statement returns at most one row (see rowsAtMost). */
  oneRow: OneRow;
}

/** Page cache per connection, KiB. */
const CACHE_KIB = 65_536;

/**
 * A number that changes whenever the database file may have changed: a write by any client of this process
 * on the same file (at once), a commit by another process (SQLite's `PRAGMA data_version`, read at most once
 * per DATA_VERSION_CHECK_MS: reading it starts a read transaction, ~6 µs), or a reconnect. Shared by the
 * clients of one file in this process, so replicas in one process see each other's writes at once.
 */
interface ChangeVersion {
  value: number;
}
const changeVersions = new Map<string, ChangeVersion>();
/** How stale another process's commit may be when a caller trusts an unchanged version (bounded, documented). */
export const DATA_VERSION_CHECK_MS = 1;

/** Distinct SQL texts kept prepared per connection (drizzle's are parameterised, so few). */
const STATEMENT_CACHE_SIZE = 500;
/** SQLITE_BUSY, as libsql reports it (code or message). */
const isBusy = (error: unknown) => /SQLITE_BUSY|database is locked/.test(`${(error as { code?: string })?.code ?? ""} ${(error as Error)?.message ?? ""}`);
/** The pause before a statement that met SQLITE_BUSY runs again (doubled at most, at random: two replicas do not retry in step). */
const BUSY_RETRY_MS = 50;
const BEGIN: Record<TransactionMode, string> = { write: "BEGIN IMMEDIATE", read: "BEGIN TRANSACTION READONLY", deferred: "BEGIN DEFERRED" };

/** Exported for the import bench's statement profile (PROFILE=statements), which times `run`. */
export class Connection {
  readonly db: NativeDb;
  private readonly statements = new Map<string, Prepared>();
  private dataVersionStatement: NativeStatement | null = null;
  /** Kind of the last statement run: after a `read` or `dml` one no transaction can be left open. */
  lastKind: StatementKind = "other";
  constructor(
    path: string,
    timeoutMs: number,
    private readonly version: ChangeVersion,
    writerCheckpointPages?: number,
    /** Told whether each write found space (what /api/health reports). */
    private readonly storage?: StorageHealth,
  ) {
    this.db = new Database(path, { timeout: timeoutMs } as ConstructorParameters<typeof Database>[1]);
    // A page cache that holds a growing brain's hot index pages (SQLite's default is 2 MiB): grown on use, so
    // an idle or small server never fills it.
    this.db.exec(`PRAGMA cache_size=-${CACHE_KIB}`);
    // Per connection, so a reconnect (after SQLITE_BUSY) keeps it: in WAL mode NORMAL syncs at checkpoints
    // only and survives a process crash; the default (FULL) syncs the log at every commit.
    this.db.exec("PRAGMA synchronous=NORMAL");
    if (writerCheckpointPages) this.useCheckpointThread(writerCheckpointPages);
  }

  /** A checkpoint thread does the copying (checkpointer.ts); the writer's own checkpoint stays as a backstop. */
  useCheckpointThread(writerCheckpointPages: number) {
    this.db.exec(`PRAGMA wal_autocheckpoint=${writerCheckpointPages}`);
    this.db.exec(`PRAGMA journal_size_limit=${LOG_SIZE_LIMIT}`);
  }

  run(stmt: InStatement): ResultSet {
    const sql = typeof stmt === "string" ? stmt : stmt.sql;
    const args = typeof stmt === "string" ? [] : toArgs(stmt.args);
    let prepared: Prepared | undefined;
    try {
      prepared = this.prepared(sql);
      const { statement, columns, columnTypes, toRow, kind, oneRow } = prepared;
      this.lastKind = kind;
      if (kind === "other") this.version.value++;
      if (columns && (oneRow === "always" || (oneRow === "whenLastArgIsOne" && Array.isArray(args) && args[args.length - 1] === 1))) {
        const raw = statement.get(args) as unknown[] | undefined;
        return resultSet(columns, columnTypes, raw === undefined ? [] : [toRow!(raw)], 0, undefined);
      }
      if (columns) {
        const raws = statement.all(args) as unknown[][];
        const rows = new Array(raws.length);
        for (let i = 0; i < raws.length; i++) rows[i] = toRow!(raws[i]!);
        if (kind === "dml" && rows.length > 0) {
          this.version.value++; // RETURNING: one row per changed row
          this.storage?.wrote();
        }
        return resultSet(columns, columnTypes, rows, 0, undefined);
      }
      const info = statement.run(args);
      if (kind === "dml" && info.changes > 0) {
        this.version.value++;
        this.storage?.wrote();
      }
      return resultSet([], [], [], info.changes, BigInt(info.lastInsertRowid));
    } catch (e) {
      if (this.storage && isStorageFull(e)) this.storage.full((e as Error).message);
      // A statement that failed may be left mid-step: never hand it out again. A failed write may have
      // changed something (a trigger, a partial batch): count it as a change.
      this.statements.delete(sql);
      this.version.value++;
      this.lastKind = "other";
      throw mapError(e);
    }
  }

  /** SQLite's data_version: changes when another connection (any process) commits to the file. */
  dataVersion(): number {
    if (!this.dataVersionStatement) {
      this.dataVersionStatement = this.db.prepare("PRAGMA data_version");
      this.dataVersionStatement.raw(true);
    }
    return Number((this.dataVersionStatement.get([]) as unknown[])[0]);
  }

  private prepared(sql: string): Prepared {
    const hit = this.statements.get(sql);
    if (hit) {
      keepRecent(this.statements, sql, hit, STATEMENT_CACHE_SIZE);
      return hit;
    }
    const statement = this.db.prepare(sql);
    statement.safeIntegers(true);
    let columns: string[] | null = null;
    let columnTypes: string[] = [];
    try {
      statement.raw(true);
      const defs = statement.columns();
      columns = defs.map((c) => c.name);
      columnTypes = defs.map((c) => c.type ?? "");
    } catch {
      // raw() throws when the statement returns no data.
    }
    const kind = kindOf(sql);
    const prepared: Prepared = { statement, columns, columnTypes, toRow: columns && rowBuilder(columns), kind, oneRow: oneRowOf(sql, kind) };
    keepRecent(this.statements, sql, prepared, STATEMENT_CACHE_SIZE);
    return prepared;
  }

  exec(sql: string) {
    try {
      this.db.exec(sql);
    } catch (e) {
      throw mapError(e);
    }
  }

  close() {
    this.statements.clear();
    this.dataVersionStatement = null;
    try {
      if (this.db.open) this.db.close();
    } catch {
      // nothing useful to do while tearing down
    }
  }
}

export type EmbeddedClient = Client & {
  /** A number that changes whenever the database may have changed (see ChangeVersion); never throws. */
  changeVersion(): number;
  /** Resolves when the connection can answer (health). */
  ping(): Promise<void>;
};

export function createEmbeddedClient(path: string, opts: { timeoutMs: number; checkpointThread?: boolean; log?: Logger; storage?: StorageHealth }): EmbeddedClient {
  let version = changeVersions.get(path);
  if (!version) changeVersions.set(path, (version = { value: 0 }));
  const shared = version;
  let connection = new Connection(path, opts.timeoutMs, shared, undefined, opts.storage);
  connection.run("SELECT 1 AS checkThatTheDatabaseCanBeOpened");
  // Started once the file exists; until the migrations put it in WAL mode its checkpoints do nothing.
  const checkpointer = opts.checkpointThread ? startCheckpointer(path, opts.log) : null;
  const writerCheckpointPages = checkpointer ? WRITER_CHECKPOINT_PAGES : undefined;
  if (writerCheckpointPages) connection.useCheckpointThread(writerCheckpointPages);
  let closed = false;
  let heldBy: object | null = null;
  const waiters: Array<() => void> = [];
  let dataVersion = -1;
  let dataVersionReadAt = -Infinity;

  const checkOpen = () => {
    if (closed) throw new LibsqlError("The client is closed", "CLIENT_CLOSED");
  };
  const reconnectNow = () => {
    connection.close();
    connection = new Connection(path, opts.timeoutMs, shared, writerCheckpointPages, opts.storage);
    shared.value++;
    dataVersionReadAt = -Infinity;
  };
  /** Runs `work` on the connection now (it is free). */
  const runNow = <T>(work: (c: Connection) => T): T => {
    const c = connection;
    try {
      return work(c);
    } catch (error) {
      // libsql 0.5 leaves a statement that failed with SQLITE_BUSY unfinished: the connection then keeps an
      // open transaction, later writes report success but never commit, and it holds the write lock (found
      // with the remote-database stand-in). A fresh connection is the cure.
      if (isBusy(error)) reconnectNow();
      throw error;
    } finally {
      // Like the pool: a call must not leave the connection inside a transaction for the next one. Only a
      // statement of kind `other` (BEGIN, a batch, a script) can; asking the driver costs a native call.
      if (c === connection && c.lastKind === "other" && c.db.open && c.db.inTransaction) c.run("ROLLBACK");
    }
  };
  /**
   * Runs `work` with the connection once no transaction holds it. When it is free (nearly always) the work
   * runs at once and the answer is an already settled promise: no async frames per query (bench-edge).
   */
  const withConnection = <T>(work: (c: Connection) => T, retryBusy = false): Promise<T> => {
    if (closed || heldBy) return afterWaiting(work, retryBusy);
    try {
      return Promise.resolve(runNow(work));
    } catch (e) {
      return retryBusy && isBusy(e) ? afterBusy(work) : Promise.reject(e);
    }
  };
  const afterWaiting = async <T>(work: (c: Connection) => T, retryBusy = false): Promise<T> => {
    checkOpen();
    while (heldBy) await new Promise<void>((resolve) => waiters.push(resolve));
    checkOpen();
    try {
      return runNow(work);
    } catch (e) {
      if (retryBusy && isBusy(e)) return afterBusy(work);
      throw e;
    }
  };
  /**
   * A statement or batch that met SQLITE_BUSY wrote nothing, and the connection has been replaced: it runs once
   * more, on a fresh snapshot, after a short pause. With two replicas on one file a source's write met it at
   * once, without waiting out the busy timeout (while the other replica was writing), and its job ran again:
   * the link was fetched twice. Only whole statements and batches: never a statement of an open transaction.
   */
  const afterBusy = async <T>(work: (c: Connection) => T): Promise<T> => {
    await Bun.sleep(BUSY_RETRY_MS * (1 + Math.random()));
    return withConnection(work);
  };
  const release = (owner: object) => {
    if (heldBy !== owner) return;
    heldBy = null;
    for (const wake of waiters.splice(0)) wake();
  };
  const runBatch = (c: Connection, stmts: Array<InStatement | [string, InArgs?]>, begin: string) => {
    c.run(begin);
    const results = stmts.map((s) => c.run(Array.isArray(s) ? { sql: s[0], args: s[1] ?? [] } : s));
    c.run("COMMIT");
    return results;
  };

  const client: EmbeddedClient = {
    protocol: "file",
    changeVersion() {
      // While a transaction holds the connection its writes are not committed yet: report a change.
      if (closed || heldBy) return ++shared.value;
      const now = performance.now();
      if (now - dataVersionReadAt >= DATA_VERSION_CHECK_MS) {
        dataVersionReadAt = now;
        try {
          const current = connection.dataVersion();
          if (current !== dataVersion) {
            dataVersion = current;
            shared.value++;
          }
        } catch {
          // A failed read may leave the driver's connection mid-statement (see runNow): start a fresh one.
          reconnectNow();
          return ++shared.value;
        }
      }
      return shared.value;
    },
    get closed() {
      return closed;
    },
    ping() {
      // `SELECT 1` touches no table, so on the file it proves only that the connection is open: ask that
      // directly, and without waiting behind a transaction that holds the connection.
      if (closed || !connection.db.open) return Promise.reject(new LibsqlError("The client is closed", "CLIENT_CLOSED"));
      return Promise.resolve();
    },
    execute(stmtOrSql: InStatement | string, args?: InArgs) {
      const stmt = typeof stmtOrSql === "string" ? { sql: stmtOrSql, args: args ?? [] } : stmtOrSql;
      return withConnection((c) => c.run(stmt), true);
    },
    batch(stmts, mode = "deferred") {
      return withConnection((c) => runBatch(c, stmts, BEGIN[mode]), true);
    },
    migrate(stmts) {
      return withConnection((c) => {
        c.run("PRAGMA foreign_keys=off");
        try {
          return runBatch(c, stmts, BEGIN.deferred);
        } finally {
          if (c.db.inTransaction) c.run("ROLLBACK");
          c.run("PRAGMA foreign_keys=on");
        }
      });
    },
    executeMultiple(sql: string) {
      return withConnection((c) => c.exec(sql));
    },
    async transaction(mode: TransactionMode = "write"): Promise<Transaction> {
      checkOpen();
      while (heldBy) await new Promise<void>((resolve) => waiters.push(resolve));
      checkOpen();
      const owner = {};
      heldBy = owner;
      const c = connection;
      try {
        c.run(BEGIN[mode]);
      } catch (e) {
        release(owner);
        throw e;
      }
      return embeddedTransaction(c, () => release(owner));
    },
    async sync() {
      throw new LibsqlError("sync() needs an embedded replica; this is a plain database file", "SYNC_NOT_SUPPORTED");
    },
    async reconnect() {
      reconnectNow();
      closed = false;
      heldBy = null;
      for (const wake of waiters.splice(0)) wake();
    },
    close() {
      closed = true;
      checkpointer?.stop();
      connection.close();
      for (const wake of waiters.splice(0)) wake();
    },
  } as EmbeddedClient;
  return client;
}

function embeddedTransaction(c: Connection, release: () => void): Transaction {
  let done = false;
  const live = () => {
    if (done || !c.db.open || !c.db.inTransaction) throw new LibsqlError("The transaction is closed", "TRANSACTION_CLOSED");
    return c;
  };
  const settle = () => {
    if (done) return;
    done = true;
    release();
  };
  return {
    async execute(stmtOrSql: InStatement | string, args?: InArgs) {
      return live().run(typeof stmtOrSql === "string" ? { sql: stmtOrSql, args: args ?? [] } : stmtOrSql);
    },
    async batch(stmts: InStatement[]) {
      return stmts.map((s) => live().run(Array.isArray(s) ? { sql: s[0], args: s[1] ?? [] } : s));
    },
    async executeMultiple(sql: string) {
      live().exec(sql);
    },
    async rollback() {
      try {
        if (!done && c.db.open && c.db.inTransaction) c.run("ROLLBACK");
      } finally {
        settle();
      }
    },
    async commit() {
      try {
        live().run("COMMIT");
      } finally {
        settle();
      }
    },
    close() {
      try {
        if (!done && c.db.open && c.db.inTransaction) c.run("ROLLBACK");
      } finally {
        settle();
      }
    },
    get closed() {
      return done || !c.db.open || !c.db.inTransaction;
    },
  } as Transaction;
}
