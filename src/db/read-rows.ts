import type { Db } from "./client";
import { queryRows } from "./plain";

/**
 * Rows of a read with plain SQL: the main connection's, or a worker thread's own read-only connection to the
 * embedded file, so reads that only decide a write can run off the thread that writes.
 */
export type ReadRows = (sql: string, args: (string | number)[]) => Promise<Record<string, unknown>[]> | Record<string, unknown>[];

/** A reader over a drizzle handle (the main connection). */
export const readRowsOf =
  (db: Db): ReadRows =>
  (sql, args) =>
    queryRows<Record<string, unknown>>(db, sql, ...args);
