/**
 * Rows of a read with plain SQL: the main connection's, or a worker thread's own read-only connection to the
 * embedded file, so reads that only decide a write can run off the thread that writes.
 */
export type ReadRows = (sql: string, args: (string | number)[]) => Promise<Record<string, unknown>[]> | Record<string, unknown>[];

/** A reader over a drizzle handle's client (the main connection). */
export const readRowsOf =
  (db: object): ReadRows =>
  async (sql, args) =>
    (await (db as { $client: { execute(s: { sql: string; args: (string | number)[] }): Promise<{ rows: unknown[] }> } }).$client.execute({ sql, args })).rows as Record<string, unknown>[];
