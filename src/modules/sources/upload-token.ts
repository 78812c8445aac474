// Signed, single-use upload URLs for the embedded storage: the token carries what the PUT must match
// (source, key, content type, size, expiry) and an HMAC over it with the instance secret.
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

/** The instance secret lives with the sealing that derives its key from it (db/sealed.ts). */
export { instanceSecret } from "../../db/sealed";

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
