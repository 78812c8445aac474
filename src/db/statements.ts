// What a SQL text does, read once when it is prepared: whether it can change the database (for the change
// version, embedded.ts and client.ts) and whether it returns at most one row (read with the driver's `get`).

/**
 * Statements that return at most one row are read with the driver's `get`, ~2 µs cheaper than its row
 * iterator (bench-edge): a SELECT without FROM, UNION or VALUES, and one ending in
 * `LIMIT 1` or `LIMIT ?` when that last argument is 1 (drizzle's findFirst and `.limit(1)`).
 */
export type OneRow = "always" | "whenLastArgIsOne" | "never";
export function oneRowOf(sql: string, kind: StatementKind): OneRow {
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
