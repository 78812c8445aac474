// A connector's secret settings (tokens, passwords, header values) are write-only: stored AES-GCM encrypted
// with a key derived from the instance secret (shared by every replica through the database), never
// returned (a view shows "set"), never logged.
import type { Db } from "../../db/client";
import { instanceSecret } from "../sources/upload-token";

const IV_BYTES = 12;

async function keyOf(db: Db): Promise<CryptoKey> {
  // A key of its own (HKDF with a purpose label), so the upload-signing secret is never used as is.
  const material = await crypto.subtle.importKey("raw", new TextEncoder().encode(await instanceSecret(db)), "HKDF", false, ["deriveKey"]);
  return crypto.subtle.deriveKey(
    { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0), info: new TextEncoder().encode("brainbox connector secrets v1") },
    material,
    { name: "AES-GCM", length: 256 },
    false,
    ["encrypt", "decrypt"],
  );
}

/** Encrypts the secret part of a config; null when there is none. */
export async function sealSecrets(db: Db, secrets: Record<string, unknown>): Promise<string | null> {
  if (Object.keys(secrets).length === 0) return null;
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv }, await keyOf(db), new TextEncoder().encode(JSON.stringify(secrets))));
  return `v1.${Buffer.from(iv).toString("base64url")}.${Buffer.from(sealed).toString("base64url")}`;
}

export async function openSecrets(db: Db, sealed: string | null): Promise<Record<string, unknown>> {
  if (!sealed) return {};
  const [, iv, body] = sealed.split(".");
  const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: Buffer.from(iv!, "base64url") }, await keyOf(db), Buffer.from(body!, "base64url"));
  return JSON.parse(new TextDecoder().decode(plain)) as Record<string, unknown>;
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
