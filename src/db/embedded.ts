// The embedded database file as a libSQL `Client`, on the same native driver (`libsql`) that
// @libsql/client uses, with prepared statements kept per connection.
//
// Why: @libsql/client's file client prepares every statement again and reads its column list twice per
// call; measured, that was ~55% of the CPU of a drizzle query (bench-edge, issue 15). Caching the prepared
// statement and its columns per SQL text removes both. Everything else copies @libsql/client 0.18's
// file client so drizzle-orm/libsql and code reading `client.execute(...).rows` see the same results:
// rows indexable by position and by column name, integers as numbers, BLOBs as ArrayBuffers, errors as
// LibsqlError with the SQLite codes, one connection (a transaction holds it; other calls wait).
import Database from "libsql";
import { LibsqlError, type Client, type InArgs, type InStatement, type ResultSet, type Transaction, type TransactionMode } from "@libsql/client";

type NativeDb = InstanceType<typeof Database>;
type NativeStatement = ReturnType<NativeDb["prepare"]>;
interface Prepared {
  statement: NativeStatement;
  /** Null when the statement returns no rows (INSERT/UPDATE/DDL without RETURNING). */
  columns: string[] | null;
  columnTypes: string[];
}

/** Page cache per connection, KiB. */
const CACHE_KIB = 65_536;
/** Distinct SQL texts kept prepared per connection (drizzle's are parameterised, so few). */
const STATEMENT_CACHE_SIZE = 500;
const BEGIN: Record<TransactionMode, string> = { write: "BEGIN IMMEDIATE", read: "BEGIN TRANSACTION READONLY", deferred: "BEGIN DEFERRED" };

class Connection {
  readonly db: NativeDb;
  private readonly statements = new Map<string, Prepared>();
  constructor(path: string, timeoutMs: number) {
    this.db = new Database(path, { timeout: timeoutMs } as ConstructorParameters<typeof Database>[1]);
    // A page cache that holds a growing brain's hot index pages (SQLite's default is 2 MiB): grown on use, so
    // an idle or small server never fills it.
    this.db.exec(`PRAGMA cache_size=-${CACHE_KIB}`);
    // Per connection, so a reconnect (after SQLITE_BUSY) keeps it: in WAL mode NORMAL syncs at checkpoints
    // only and survives a process crash; the default (FULL) syncs the log at every commit.
    this.db.exec("PRAGMA synchronous=NORMAL");
  }

  run(stmt: InStatement): ResultSet {
    const sql = typeof stmt === "string" ? stmt : stmt.sql;
    const args = typeof stmt === "string" ? [] : toArgs(stmt.args);
    let prepared: Prepared | undefined;
    try {
      prepared = this.prepared(sql);
      const { statement, columns, columnTypes } = prepared;
      if (columns) {
        const rows = (statement.all(args) as unknown[][]).map((raw) => toRow(raw, columns));
        return resultSet(columns, columnTypes, rows, 0, undefined);
      }
      const info = statement.run(args);
      return resultSet([], [], [], info.changes, BigInt(info.lastInsertRowid));
    } catch (e) {
      // A statement that failed may be left mid-step: never hand it out again.
      this.statements.delete(sql);
      throw mapError(e);
    }
  }

  private prepared(sql: string): Prepared {
    const hit = this.statements.get(sql);
    if (hit) {
      // Refresh its place: the map's first key is the least recently used.
      this.statements.delete(sql);
      this.statements.set(sql, hit);
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
    const prepared = { statement, columns, columnTypes };
    this.statements.set(sql, prepared);
    if (this.statements.size > STATEMENT_CACHE_SIZE) this.statements.delete(this.statements.keys().next().value!);
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
    try {
      if (this.db.open) this.db.close();
    } catch {
      // nothing useful to do while tearing down
    }
  }
}

export function createEmbeddedClient(path: string, opts: { timeoutMs: number }): Client {
  let connection = new Connection(path, opts.timeoutMs);
  connection.run("SELECT 1 AS checkThatTheDatabaseCanBeOpened");
  let closed = false;
  let heldBy: object | null = null;
  const waiters: Array<() => void> = [];

  const checkOpen = () => {
    if (closed) throw new LibsqlError("The client is closed", "CLIENT_CLOSED");
  };
  /** Runs `work` with the connection once no transaction holds it. */
  const withConnection = async <T>(work: (c: Connection) => T): Promise<T> => {
    checkOpen();
    while (heldBy) await new Promise<void>((resolve) => waiters.push(resolve));
    checkOpen();
    const c = connection;
    try {
      return work(c);
    } finally {
      // Like the pool: a call must not leave the connection inside a transaction for the next one.
      if (c.db.open && c.db.inTransaction) c.run("ROLLBACK");
    }
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

  const client: Client = {
    protocol: "file",
    get closed() {
      return closed;
    },
    execute(stmtOrSql: InStatement | string, args?: InArgs) {
      const stmt = typeof stmtOrSql === "string" ? { sql: stmtOrSql, args: args ?? [] } : stmtOrSql;
      return withConnection((c) => c.run(stmt));
    },
    batch(stmts, mode = "deferred") {
      return withConnection((c) => runBatch(c, stmts, BEGIN[mode]));
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
      connection.close();
      connection = new Connection(path, opts.timeoutMs);
      closed = false;
      heldBy = null;
      for (const wake of waiters.splice(0)) wake();
    },
    close() {
      closed = true;
      connection.close();
      for (const wake of waiters.splice(0)) wake();
    },
  } as Client;
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

function resultSet(columns: string[], columnTypes: string[], rows: unknown[], rowsAffected: number, lastInsertRowid: bigint | undefined): ResultSet {
  return {
    columns,
    columnTypes,
    rows,
    rowsAffected,
    lastInsertRowid,
    toJSON() {
      return { columns, columnTypes, rows: rows.map((r) => Array.prototype.slice.call(r)), rowsAffected, lastInsertRowid: lastInsertRowid?.toString() ?? null };
    },
  } as ResultSet;
}

/** A row as @libsql/client builds it: values by index (not enumerable) and by column name (enumerable). */
function toRow(raw: unknown[], columns: string[]) {
  const row: Record<string | number, unknown> = {};
  Object.defineProperty(row, "length", { value: raw.length });
  for (let i = 0; i < raw.length; i++) {
    const value = fromSql(raw[i]);
    Object.defineProperty(row, i, { value });
    const column = columns[i]!;
    if (!Object.hasOwn(row, column)) Object.defineProperty(row, column, { value, enumerable: true, configurable: true, writable: true });
  }
  return row;
}

const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
function fromSql(value: unknown): unknown {
  if (typeof value === "bigint") {
    if (value < MIN_SAFE || value > MAX_SAFE) throw new RangeError("Received integer which cannot be safely represented as a JavaScript number");
    return Number(value);
  }
  if (value instanceof Buffer) return value.buffer;
  return value;
}

function toArgs(args: InArgs | undefined): unknown[] | Record<string, unknown> {
  if (args === undefined) return [];
  if (Array.isArray(args)) return args.map(toSql);
  const named: Record<string, unknown> = {};
  for (const name in args) named[/^[@$:]/.test(name) ? name.slice(1) : name] = toSql((args as Record<string, unknown>)[name]);
  return named;
}

function toSql(value: unknown): unknown {
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new RangeError("Only finite numbers (not Infinity or NaN) can be passed as arguments");
    return value;
  }
  if (typeof value === "boolean") return value ? 1 : 0;
  if (value instanceof ArrayBuffer) return Buffer.from(value);
  if (value instanceof Date) return value.valueOf();
  if (value === undefined) throw new TypeError("undefined cannot be passed as argument to the database");
  return value;
}

const BASE_CODES: Record<number, string> = {
  1: "SQLITE_ERROR", 2: "SQLITE_INTERNAL", 3: "SQLITE_PERM", 4: "SQLITE_ABORT", 5: "SQLITE_BUSY", 6: "SQLITE_LOCKED",
  7: "SQLITE_NOMEM", 8: "SQLITE_READONLY", 9: "SQLITE_INTERRUPT", 10: "SQLITE_IOERR", 11: "SQLITE_CORRUPT",
  12: "SQLITE_NOTFOUND", 13: "SQLITE_FULL", 14: "SQLITE_CANTOPEN", 15: "SQLITE_PROTOCOL", 16: "SQLITE_EMPTY",
  17: "SQLITE_SCHEMA", 18: "SQLITE_TOOBIG", 19: "SQLITE_CONSTRAINT", 20: "SQLITE_MISMATCH", 21: "SQLITE_MISUSE",
  22: "SQLITE_NOLFS", 23: "SQLITE_AUTH", 24: "SQLITE_FORMAT", 25: "SQLITE_RANGE", 26: "SQLITE_NOTADB",
  27: "SQLITE_NOTICE", 28: "SQLITE_WARNING",
};

function mapError(e: unknown): unknown {
  if (e instanceof Database.SqliteError) {
    const raw = (e as { rawCode?: number }).rawCode;
    const code = raw === undefined ? "SQLITE_UNKNOWN" : (BASE_CODES[raw & 0xff] ?? `SQLITE_UNKNOWN_${raw & 0xff}`);
    return new LibsqlError(e.message, code, (e as { code?: string }).code, raw, e);
  }
  return e;
}
