/**
 * Rows of a read with plain SQL: the main connection's, or a worker thread's own read-only connection to the
 * embedded file, so reads that only decide a write can run off the thread that writes.
 */
export type ReadRows = (sql: string, args: (string | number)[]) => Promise<Record<string, unknown>[]> | Record<string, unknown>[];
