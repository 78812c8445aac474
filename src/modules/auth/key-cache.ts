// Valid API keys remembered per database, trusted only while the database is unchanged (its change version,
// src/db/client.ts). Looking a key up cost a query per request (~25 µs of ~150, bench-edge, issue 15);
// checking the version costs a counter read, and at most one `PRAGMA data_version` a millisecond.
//
// What that guarantees for a revoked key (or a changed plan, a deleted account):
// - in the process that made the change (any of its database clients): refused at the next request, since
//   every write of the process changes the version;
// - in another process on the same database file: refused within DATA_VERSION_CHECK_MS (1 ms);
// - in another replica on a remote libSQL server: refused within REMOTE_CHANGE_WINDOW_MS (2 s).
// Any write to the database (a job claim, an ingested page) also drops what was cached: the cache only
// helps while the database is quiet, and is never wrong.
import type { Db } from "../../db/client";
import { changeVersionOf } from "../../db/client";
import type { Account } from "../accounts/service";

export interface CachedKey {
  keyId: string;
  account: Account;
  lastUsedAt: number | null;
  /** The change version the key was read under. */
  version: number;
  readOnly: boolean;
  expiresAt: number | null;
}

/** Keys beyond this many are forgotten all at once (memory stays bounded when many keys are in use). */
const MAX_KEYS = 10_000;

const caches = new WeakMap<object, Map<string, CachedKey>>();

/**
 * The key cache of a database handle: `version()` to read before a lookup (null: do not cache), `get` for a
 * key still valid under that version, `set` to remember a key read under it.
 */
export function keyCache(db: Db) {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  const keys = cache;
  return {
    version: () => changeVersionOf(db),
    get(hash: string, version: number | null): CachedKey | undefined {
      if (version === null) return undefined;
      const hit = keys.get(hash);
      return hit && hit.version === version ? hit : undefined;
    },
    set(hash: string, entry: CachedKey) {
      if (keys.size >= MAX_KEYS) keys.clear();
      keys.set(hash, entry);
    },
  };
}
