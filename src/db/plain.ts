// Statements as plain SQL text and arguments, for the write paths that run tens of statements per source: the
// text of each is fixed, so nothing is built per call (drizzle's query building was ~10% of the main
// thread's time in a 50k-source import) and the connection finds its prepared statement at once. Drizzle
// queries (db.run(sql`...`)) may go in the same batch: they are built when the batch runs.
import type { InValue, ResultSet } from "@libsql/client";
import type { Db } from "./client";

export interface Statement {
  sql: string;
  args: InValue[];
}

/** A drizzle query (db.run(sql`...`), db.delete(...)...), built when its batch runs, as drizzle's batch does. */
type Query = { toSQL(): unknown } | { getQuery(): unknown };
type BuiltQuery = { sql: string; params: unknown[] };

export type Batchable = Statement | Query;

/** SQL text spliced into a statement (a guard, a sub-select) with its arguments. */
export type Fragment = Statement;

export const stmt = (sql: string, ...args: InValue[]): Statement => ({ sql, args });

/**
 * Concept pages probed by brain and slug (`pages p ${CONCEPT_PAGES} ... p.kind = 'concept'`): through the partial
 * index of concept pages (migration 0021), which holds the slug and the id, so a probe that finds nothing or
 * wants no more reads no row. The planner takes the unique (brain, slug) index of every page instead and reads
 * each page found for its kind (a source's 33 late-link probes on a 20k brain: 23 → 16 µs).
 */
export const CONCEPT_PAGES = "INDEXED BY pages_brain_concept";

/** Always true: the guard of a statement that has none. */
export const ALWAYS: Fragment = { sql: "1", args: [] };

const toStatement = (s: Batchable): Statement => {
  const query = s as Partial<{ toSQL(): BuiltQuery; getQuery(): BuiltQuery }>;
  const built = typeof query.toSQL === "function" ? query.toSQL() : typeof query.getQuery === "function" ? query.getQuery() : null;
  return built ? { sql: built.sql, args: built.params as InValue[] } : (s as Statement);
};

/**
 * Runs the statements in one transaction, in order (a drizzle batch's mode); a result per statement. On the
 * database handle, not inside an interactive transaction (the serving process has none: client.ts).
 */
export async function runBatch(db: Db, statements: Batchable[]): Promise<ResultSet[]> {
  if (statements.length === 0) return [];
  const client = (db as { $client?: { batch(s: Statement[]): Promise<ResultSet[]> } }).$client;
  if (!client) throw new Error("runBatch runs on the database handle, not inside a transaction");
  return client.batch(statements.map(toStatement));
}

/**
 * The rows of a plain read on the database handle (drizzle's `db.all(sql`...`)` without building the query:
 * 3-7 µs a query, and the refresh and merge read several per source).
 */
export async function queryRows<T>(db: Db, sql: string, ...args: InValue[]): Promise<T[]> {
  const client = (db as { $client?: { execute(s: Statement): Promise<{ rows: unknown[] }> } }).$client;
  if (!client) throw new Error("queryRows runs on the database handle, not inside a transaction");
  return (await client.execute({ sql, args })).rows as T[];
}
