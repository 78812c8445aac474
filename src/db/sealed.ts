// Secrets stored at rest (connector tokens and header values, webhook signing secrets): AES-GCM encrypted
// with a key derived from the instance secret, which every replica shares through the database. Here, below
// the modules and jobs, because a module writes them and a job (webhook delivery) reads them.
import { sql } from "drizzle-orm";
import { randomBase62 } from "../lib/secrets";
import type { Db } from "./client";
import { settings } from "./schema";

const IV_BYTES = 12;
/** What a sealed value starts with: a plain secret never does (a webhook's starts with `whsec_`). */
export const SEALED_PREFIX = "v1.";

/** The instance secret, created once and shared by every replica through the database. */
export async function instanceSecret(db: Db): Promise<string> {
  await db.run(sql`INSERT INTO ${settings} (key, value) VALUES ('upload_secret', ${randomBase62(48)}) ON CONFLICT (key) DO NOTHING`);
  const row = await db.query.settings.findFirst({ where: (s, { eq }) => eq(s.key, "upload_secret") });
  return row!.value;
}

// One key per database handle: a delivery or a connector run opens a secret without writing the settings row.
const keys = new WeakMap<object, Promise<CryptoKey>>();

async function deriveKey(db: Db): Promise<CryptoKey> {
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

function keyOf(db: Db): Promise<CryptoKey> {
  let key = keys.get(db);
  if (!key) {
    key = deriveKey(db);
    keys.set(db, key);
    key.catch(() => keys.delete(db)); // a failed read is tried again next time
  }
  return key;
}

/** `v1.<iv>.<ciphertext>`, both base64url; a fresh IV each time, so one secret sealed twice differs. */
export async function sealText(db: Db, plain: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv }, await keyOf(db), new TextEncoder().encode(plain)));
  return `${SEALED_PREFIX}${Buffer.from(iv).toString("base64url")}.${Buffer.from(sealed).toString("base64url")}`;
}

export async function openText(db: Db, sealed: string): Promise<string> {
  const [, iv, body] = sealed.split(".");
  const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: Buffer.from(iv!, "base64url") }, await keyOf(db), Buffer.from(body!, "base64url"));
  return new TextDecoder().decode(plain);
}

/** A value that may have been stored before sealing existed: sealed ones are opened, plain ones used as they are. */
export const openSealedOrPlain = (db: Db, stored: string) => (stored.startsWith(SEALED_PREFIX) ? openText(db, stored) : Promise.resolve(stored));
