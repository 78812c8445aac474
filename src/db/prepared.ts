// Drizzle queries prepared once per database handle. Building a query's SQL costs drizzle tens of
// microseconds, as much as running it (bench-edge, issue 15): hot paths (every authenticated request,
// list endpoints) prepare theirs once with `sql.placeholder(...)` for the values and then only execute.
import type { Db } from "./client";

const perDb = new WeakMap<object, Map<string, unknown>>();

export function prepared<T>(db: Db, name: string, build: (db: Db) => T): T {
  let queries = perDb.get(db);
  if (!queries) {
    queries = new Map();
    perDb.set(db, queries);
  }
  let query = queries.get(name) as T | undefined;
  if (query === undefined) {
    query = build(db);
    queries.set(name, query);
  }
  return query;
}
