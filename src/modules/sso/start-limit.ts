// Starting a sign-on needs no credential and writes a flow row (kept ten minutes), so starts are counted
// per client address in one-minute windows: a flood from one address is refused (429) instead of filling
// the table. In memory, per process, like the password throttle.
const WINDOW_MS = 60_000;
const MAX_TRACKED = 50_000;

export interface StartLimiter {
  /** Seconds to wait before this address may start another sign-on; 0 = go ahead (and it is counted). */
  take(address: string): number;
}

export function startLimiter(perMinute: number, clock: () => number = Date.now): StartLimiter {
  const windows = new Map<string, { since: number; count: number }>();
  return {
    take(address) {
      const now = clock();
      let entry = windows.get(address);
      if (!entry || now - entry.since >= WINDOW_MS) {
        if (!entry && windows.size >= MAX_TRACKED) windows.delete(windows.keys().next().value!);
        entry = { since: now, count: 0 };
        windows.set(address, entry);
      }
      if (entry.count >= perMinute) return Math.max(1, Math.ceil((entry.since + WINDOW_MS - now) / 1000));
      entry.count++;
      return 0;
    },
  };
}
