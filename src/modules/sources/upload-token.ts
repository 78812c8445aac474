// Signed, single-use upload URLs for the embedded storage: the token carries what the PUT must match
// (source, key, content type, size, expiry) and an HMAC over it with the instance secret.
import { sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { settings } from "../../db/schema";
import { AppError } from "../../lib/errors";
import { hmacHex, randomBase62, safeEqual } from "../../lib/secrets";

export interface UploadClaims {
  /** Token id: recorded once used, so a URL works once. */
  jti: string;
  sourceId: string;
  brainId: string;
  key: string;
  contentType: string;
  size: number;
  /** Expiry, unix ms. */
  exp: number;
}

/** The instance secret, created once and shared by every replica through the database. */
export async function instanceSecret(db: Db): Promise<string> {
  await db.run(sql`INSERT INTO ${settings} (key, value) VALUES ('upload_secret', ${randomBase62(48)}) ON CONFLICT (key) DO NOTHING`);
  const row = await db.query.settings.findFirst({ where: (s, { eq }) => eq(s.key, "upload_secret") });
  return row!.value;
}

export function signUpload(secret: string, claims: UploadClaims): string {
  const body = Buffer.from(JSON.stringify(claims)).toString("base64url");
  return `${body}.${hmacHex(secret, body)}`;
}

const refused = (message: string) => new AppError("forbidden", message);

/** Checks signature and expiry; the caller checks single use and the request against the claims. */
export function verifyUpload(secret: string, token: string, now = Date.now()): UploadClaims {
  const [body, mac, extra] = token.split(".");
  if (!body || !mac || extra !== undefined || !safeEqual(mac, hmacHex(secret, body))) throw refused("Invalid upload signature");
  let claims: UploadClaims;
  try {
    claims = JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
  } catch {
    throw refused("Invalid upload signature");
  }
  if (!(claims.exp > now)) throw refused("This upload URL has expired; ask for a new one");
  return claims;
}

export const newTokenId = () => randomBase62(22);
