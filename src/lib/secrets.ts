// Random identifiers and secrets, hashing and constant-time comparison.
import { timingSafeEqual } from "node:crypto";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** Uniform base62 string from rejection-sampled random bytes (no modulo bias). */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of crypto.getRandomValues(new Uint8Array(length * 2))) {
      if (byte < 248) out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/** Prefixed id such as `brn_3fK9...`; the prefix tells a reader what the id names. */
export const newId = (prefix: string) => `${prefix}_${randomBase62(16)}`;

/**
 * Prefixed id whose first 8 characters are the creation time (base62 milliseconds; the alphabet is in ASCII
 * order, so ids sort by time), then 8 random ones: for rows written in bulk (sources), whose ids key several
 * indexes. Random ids put each insert at a random place of every such index; as a brain grew, each commit
 * dirtied more distinct pages. Time-ordered ids append. Not for anything that must be unguessable.
 */
export function newTimeOrderedId(prefix: string, now = Date.now()): string {
  let time = "";
  for (let t = now, i = 0; i < 8; i++, t = Math.floor(t / 62)) time = BASE62[t % 62] + time;
  return `${prefix}_${time}${randomBase62(8)}`;
}

export const sha256Hex = (value: string) => new Bun.CryptoHasher("sha256").update(value).digest("hex");

export function hmacHex(secret: string, value: string): string {
  return new Bun.CryptoHasher("sha256", secret).update(value).digest("hex");
}

/** Constant-time string comparison; different lengths compare unequal without early exit on content. */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  if (left.length !== right.length) {
    timingSafeEqual(left, left);
    return false;
  }
  return timingSafeEqual(left, right);
}
