// A connector's secret settings (tokens, passwords, header values) are write-only: stored AES-GCM encrypted
// with a key derived from the instance secret (db/sealed.ts, shared with webhook secrets), never
// returned (a view shows "set"), never logged.
import type { Db } from "../../db/client";
import { openText, sealText } from "../../db/sealed";

/** Encrypts the secret part of a config; null when there is none. */
export async function sealSecrets(db: Db, secrets: Record<string, unknown>): Promise<string | null> {
  if (Object.keys(secrets).length === 0) return null;
  return sealText(db, JSON.stringify(secrets));
}

export async function openSecrets(db: Db, sealed: string | null): Promise<Record<string, unknown>> {
  if (!sealed) return {};
  return JSON.parse(await openText(db, sealed)) as Record<string, unknown>;
}

/** What a view shows of the secrets: each value replaced by "set" (header names stay, their values do not). */
export function maskSecrets(secrets: Record<string, unknown>): Record<string, unknown> {
  const mask = (v: unknown): unknown =>
    v && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, mask(x)])) : "set";
  return mask(secrets) as Record<string, unknown>;
}

/** Splits a config into its public part and its secrets, by the kind's secret keys. */
export function splitSecrets(config: Record<string, unknown>, secretKeys: readonly string[]) {
  const open: Record<string, unknown> = {};
  const secret: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(config)) (secretKeys.includes(k) ? secret : open)[k] = v;
  return { open, secret };
}
