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

/**
 * Statements that return at most one row are read with the driver's `get`, ~2 µs cheaper than its row
 * iterator (bench-edge): a SELECT without FROM, UNION or VALUES, and one ending in
 * `LIMIT 1` or `LIMIT ?` when that last argument is 1 (drizzle's findFirst and `.limit(1)`).
 */
type OneRow = "always" | "whenLastArgIsOne" | "never";
function oneRowOf(sql: string, kind: StatementKind): OneRow {
  if (kind !== "read") return "never";
  if (/^\s*select\b/i.test(sql) && !/\b(from|union|values|intersect|except)\b/i.test(sql)) return "always";
  if (/\blimit\s+1\s*$/i.test(sql)) return "always";
  if (/\blimit\s+\?\s*$/i.test(sql)) return "whenLastArgIsOne";
  return "never";
}

/**
 * `read` never changes the database; `dml` changes it when it touches a row; `other` (DDL, BEGIN, COMMIT,
 * PRAGMA...) is assumed to change it, and may leave a transaction open. Misreading a statement as a write
 * only costs a cache refresh, so `read` is claimed only for a SELECT (or WITH ... SELECT) with no DML word.
 */
export type StatementKind = "read" | "dml" | "other";
export function kindOf(sql: string): StatementKind {
  const head = /^\s*(\w+)/.exec(sql)?.[1]?.toLowerCase();
  const dml = /\b(insert|update|delete|replace)\b/i.test(sql);
  if ((head === "select" || head === "values" || head === "with") && !dml) return "read";
  if (head === "insert" || head === "update" || head === "delete" || head === "replace" || (head === "with" && dml)) return "dml";
  return "other";
}

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
const BEGIN: Record<TransactionMode, string> = { write: "BEGIN IMMEDIATE", read: "BEGIN TRANSACTION READONLY", deferred: "BEGIN DEFERRED" };

class Connection {
  readonly db: NativeDb;
  private readonly statements = new Map<string, Prepared>();
  private dataVersionStatement: NativeStatement | null = null;
  /** Kind of the last statement run: after a `read` or `dml` one no transaction can be left open. */
  lastKind: StatementKind = "other";
  constructor(
    path: string,
    timeoutMs: number,
    private readonly version: ChangeVersion,
  ) {
    this.db = new Database(path, { timeout: timeoutMs } as ConstructorParameters<typeof Database>[1]);
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
        if (kind === "dml" && rows.length > 0) this.version.value++; // RETURNING: one row per changed row
        return resultSet(columns, columnTypes, rows, 0, undefined);
      }
      const info = statement.run(args);
      if (kind === "dml" && info.changes > 0) this.version.value++;
      return resultSet([], [], [], info.changes, BigInt(info.lastInsertRowid));
    } catch (e) {
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
    const kind = kindOf(sql);
    const prepared: Prepared = { statement, columns, columnTypes, toRow: columns && rowBuilder(columns), kind, oneRow: oneRowOf(sql, kind) };
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

export function createEmbeddedClient(path: string, opts: { timeoutMs: number }): EmbeddedClient {
  let version = changeVersions.get(path);
  if (!version) changeVersions.set(path, (version = { value: 0 }));
  const shared = version;
  let connection = new Connection(path, opts.timeoutMs, shared);
  connection.run("SELECT 1 AS checkThatTheDatabaseCanBeOpened");
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
    connection = new Connection(path, opts.timeoutMs, shared);
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
      if (/SQLITE_BUSY|database is locked/.test(`${(error as { code?: string }).code ?? ""} ${(error as Error).message ?? ""}`)) reconnectNow();
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
  const withConnection = <T>(work: (c: Connection) => T): Promise<T> => {
    if (closed || heldBy) return afterWaiting(work);
    try {
      return Promise.resolve(runNow(work));
    } catch (e) {
      return Promise.reject(e);
    }
  };
  const afterWaiting = async <T>(work: (c: Connection) => T): Promise<T> => {
    checkOpen();
    while (heldBy) await new Promise<void>((resolve) => waiters.push(resolve));
    checkOpen();
    return runNow(work);
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
          dataVersionReadAt = -Infinity;
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
      reconnectNow();
      closed = false;
      heldBy = null;
      for (const wake of waiters.splice(0)) wake();
    },
    close() {
      closed = true;
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

/**
 * Rows as @libsql/client builds them: values by column name (own, enumerable; the first of duplicate names
 * wins) and by index (not enumerable), with a length. The index getters and the length live on one prototype
 * per statement, reading the values from a private field (not copied by a spread, not seen by JSON): a row
 * is a plain object with its named values. Defining properties one by one on every row cost more than the
 * query (bench-edge, issue 15).
 */
class RowValues {
  readonly #values: unknown[];
  constructor(values: unknown[]) {
    this.#values = values;
  }
  static of(row: RowValues): unknown[] {
    return row.#values;
  }
}

function rowBuilder(columns: string[]): (raw: unknown[]) => Record<string | number, unknown> {
  class Row extends RowValues {}
  const proto = Row.prototype as unknown as Record<string | number, unknown>;
  Object.defineProperty(proto, "length", { value: columns.length });
  for (let i = 0; i < columns.length; i++) {
    Object.defineProperty(proto, i, {
      get(this: RowValues) {
        return RowValues.of(this)[i];
      },
    });
  }
  // "length" stays the column count, as in @libsql/client; a name like "1" would hit an index getter.
  const named: Array<[string, number]> = [];
  const shadowing: Array<[string, number]> = [];
  for (const [i, name] of columns.entries()) {
    if (name === "length" || named.some(([n]) => n === name) || shadowing.some(([n]) => n === name)) continue;
    (name in proto ? shadowing : named).push([name, i]);
  }
  return (raw) => {
    const values = new Array(raw.length);
    for (let i = 0; i < raw.length; i++) values[i] = fromSql(raw[i]);
    const row = new Row(values) as unknown as Record<string | number, unknown>;
    for (const [name, i] of named) row[name] = values[i];
    for (const [name, i] of shadowing) Object.defineProperty(row, name, { value: values[i], enumerable: true, configurable: true, writable: true });
    return row;
  };
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
