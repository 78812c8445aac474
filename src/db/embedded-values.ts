// Values and rows between the native driver (libsql) and the shapes of @libsql/client 0.18's file client,
// which drizzle-orm/libsql and code reading `client.execute(...).rows` expect.
import Database from "libsql";
import { LibsqlError, type InArgs, type ResultSet } from "@libsql/client";

export function resultSet(columns: string[], columnTypes: string[], rows: unknown[], rowsAffected: number, lastInsertRowid: bigint | undefined): ResultSet {
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

export function rowBuilder(columns: string[]): (raw: unknown[]) => Record<string | number, unknown> {
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

export function toArgs(args: InArgs | undefined): unknown[] | Record<string, unknown> {
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

export function mapError(e: unknown): unknown {
  if (e instanceof Database.SqliteError) {
    const raw = (e as { rawCode?: number }).rawCode;
    const code = raw === undefined ? "SQLITE_UNKNOWN" : (BASE_CODES[raw & 0xff] ?? `SQLITE_UNKNOWN_${raw & 0xff}`);
    return new LibsqlError(e.message, code, (e as { code?: string }).code, raw, e);
  }
  return e;
}
