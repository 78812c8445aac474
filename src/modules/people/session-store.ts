// Live sessions remembered per database handle, trusted only while the database is unchanged (its change
// version, as the API key cache in auth/key-cache.ts): a sign-out, a revocation or a deactivation anywhere
// changes the version, so the next request reads the row again. Expiry is checked on every request.
import { changeVersionOf, type Db } from "../../db/client";
import type { Account } from "../accounts/service";
import type { SessionMethod } from "../../db/schema";

export interface LiveSession {
  id: string;
  hash: string;
  account: Account;
  via: SessionMethod;
  credentialId: string | null;
  lastSeenAt: number;
  expiresAt: number;
}

interface Entry {
  session: LiveSession;
  version: number;
}

const MAX_SESSIONS = 10_000;
const caches = new WeakMap<object, Map<string, Entry>>();

export function sessionCache(db: Db) {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  const sessions = cache;
  return {
    version: () => changeVersionOf(db),
    get(hash: string, version: number | null): LiveSession | undefined {
      if (version === null) return undefined;
      const hit = sessions.get(hash);
      return hit && hit.version === version ? hit.session : undefined;
    },
    set(session: LiveSession, version: number | null) {
      if (version === null) return;
      if (sessions.size >= MAX_SESSIONS) sessions.clear();
      sessions.set(session.hash, { session, version });
    },
  };
}
