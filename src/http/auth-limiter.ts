// Failed authentications per minute, counted twice: per client address and per presented credential.
// Only failures are ever refused: a valid credential passes even from an address (or a shared proxy
// address) that sent many bad ones, so nobody can lock other users out by spraying bad tokens.

const WINDOW_MS = 60_000;
/** Beyond this many tracked addresses/credentials the oldest are dropped (memory stays bounded under a flood). */
const MAX_TRACKED = 50_000;

export interface FailureLimiter {
  /** True when no failure is on record (the usual case: lookups can be skipped). */
  readonly idle: boolean;
  /** Seconds until `key` may fail again, 0 when it is under the limit. */
  blockedFor(key: string, now?: number): number;
  record(key: string, now?: number): void;
}

export function failureLimiter(perMinute: number): FailureLimiter {
  const failures = new Map<string, number[]>();
  let lastFailure = 0;
  const recent = (key: string, now: number) => {
    const times = failures.get(key);
    if (!times) return undefined;
    while (times.length && now - times[0]! >= WINDOW_MS) times.shift();
    if (times.length === 0) failures.delete(key);
    return times.length ? times : undefined;
  };
  // Down to 90% of the cap, so a flood pays for a sweep once per 5,000 new entries, not on each.
  const prune = (now: number) => {
    for (const [k, v] of failures) if (now - v[v.length - 1]! >= WINDOW_MS) failures.delete(k);
    for (const k of failures.keys()) {
      if (failures.size <= MAX_TRACKED * 0.9) break;
      failures.delete(k); // least recently failed first (Map order)
    }
  };
  return {
    get idle() {
      // Every entry is older than the window once the newest failure is: forget them all at once.
      if (failures.size > 0 && Date.now() - lastFailure >= WINDOW_MS) failures.clear();
      return failures.size === 0;
    },
    blockedFor(key, now = Date.now()) {
      const times = recent(key, now);
      if (!times || times.length < perMinute) return 0;
      return Math.max(1, Math.ceil((WINDOW_MS - (now - times[times.length - perMinute]!)) / 1000));
    },
    record(key, now = Date.now()) {
      lastFailure = Math.max(lastFailure, now);
      const times = recent(key, now) ?? [];
      times.push(now);
      // Keep only what the limit needs to know.
      if (times.length > perMinute) times.splice(0, times.length - perMinute);
      failures.delete(key);
      failures.set(key, times);
      if (failures.size > MAX_TRACKED) prune(now);
    },
  };
}
