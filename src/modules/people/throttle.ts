// Failed sign-ins slow down, counted per (email, address) and per address alone (a generous 4x: one office
// behind one address). Past the free failures, each further failure doubles the wait before the next try
// (1 s, 2 s, 4 s … at most 15 min). Nothing is ever locked: the same email from another address is
// untouched, so an attacker hammering a person's email cannot keep the person out. In memory, per process:
// a restart forgets it, and each replica counts on its own (the doubling makes that a small gift).
const BASE_MS = 1000;
const MAX_WAIT_MS = 15 * 60_000;
/** An entry with no failure for this long (beyond its wait) is forgotten. */
const FORGET_MS = 60 * 60_000;
const MAX_TRACKED = 50_000;
const PER_ADDRESS_FACTOR = 4;

interface Entry {
  failures: number;
  blockedUntil: number;
  last: number;
}

export interface SignInThrottle {
  /** Seconds before this email may be tried again from this address; 0 when it may be tried now. */
  waitSeconds(email: string, address: string): number;
  failed(email: string, address: string): void;
  /** The right password: this pair starts over (the address's own count does not, or one good account would reset it). */
  succeeded(email: string, address: string): void;
}

export function signInThrottle(freeFailures: number, clock: () => number = Date.now): SignInThrottle {
  const entries = new Map<string, Entry>();
  const pairKey = (email: string, address: string) => `pair:${address}\u0000${email}`;
  const addressKey = (address: string) => `address:${address}`;

  const live = (key: string, now: number): Entry | undefined => {
    const entry = entries.get(key);
    if (entry && now - Math.max(entry.last, entry.blockedUntil) >= FORGET_MS) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  };
  const bump = (key: string, free: number, now: number) => {
    const entry = live(key, now) ?? { failures: 0, blockedUntil: 0, last: now };
    entry.failures++;
    entry.last = now;
    if (entry.failures > free) entry.blockedUntil = now + Math.min(MAX_WAIT_MS, BASE_MS * 2 ** Math.min(30, entry.failures - free - 1));
    entries.delete(key);
    entries.set(key, entry);
    if (entries.size > MAX_TRACKED) entries.delete(entries.keys().next().value!); // least recently failed
  };
  const waitOf = (key: string, now: number) => {
    const entry = live(key, now);
    return entry && entry.blockedUntil > now ? Math.ceil((entry.blockedUntil - now) / 1000) : 0;
  };

  return {
    waitSeconds(email, address) {
      const now = clock();
      return Math.max(waitOf(pairKey(email, address), now), waitOf(addressKey(address), now));
    },
    failed(email, address) {
      const now = clock();
      bump(pairKey(email, address), freeFailures, now);
      bump(addressKey(address), freeFailures * PER_ADDRESS_FACTOR, now);
    },
    succeeded(email, address) {
      entries.delete(pairKey(email, address));
    },
  };
}
