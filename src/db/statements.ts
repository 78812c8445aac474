// What a SQL text does: whether it can change the database (for the change version, change-version.ts).

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
