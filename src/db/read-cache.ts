// Results of hot reads kept while the database is unchanged: the next request reads them from memory, not
// from the file. Every read of the file costs tens of microseconds of server CPU under load (a WAL read
// transaction takes two file locks, the driver allocates its row iterator and values, drizzle maps rows):
// the brains list was over half the CPU of an authenticated GET /api/v1/brains (bench-edge, issue 15).
//
// Exact like the key cache (src/modules/auth/key-cache.ts): any write of this process changes the version
// at once, a commit by another process within DATA_VERSION_CHECK_MS (1 ms). Only for the embedded file; with
// a remote server every call reads (exactChangeVersionOf is null). Values are shared by every caller until
// the next change: they must not be mutated (cache frozen values).
import type { Db } from "./client";
import { exactChangeVersionOf } from "./client";

/** Entries per database handle beyond which all are forgotten at once (memory stays bounded). */
const MAX_ENTRIES = 10_000;

const caches = new WeakMap<object, Map<string, { version: number; value: unknown }>>();

/** `read()`'s result for `key`, reused while the database's change version holds. */
export async function cachedRead<T>(db: Db, key: string, read: () => Promise<T>): Promise<T> {
  // Read before the query: a change that lands during it leaves the entry already outdated.
  const version = exactChangeVersionOf(db);
  if (version === null) return read();
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  const hit = cache.get(key);
  if (hit && hit.version === version) return hit.value as T;
  const value = await read();
  if (cache.size >= MAX_ENTRIES) cache.clear();
  cache.set(key, { version, value });
  return value;
}
