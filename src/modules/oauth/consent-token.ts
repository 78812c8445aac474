// The consent form carries the authorization request inside a signed, expiring token, so the POST can
// only approve exactly what the page showed (nothing to tamper with in hidden fields) and only from a
// form this server rendered recently. The secret derives from the instance secret every replica shares.
import type { Db } from "../../db/client";
import { hmacHex, safeEqual } from "../../lib/secrets";
import { instanceSecret } from "../sources/upload-token";
import type { AuthorizationRequest } from "./authorize";

/** Long enough to find and paste an API key. */
export const CONSENT_FORM_TTL_MS = 10 * 60_000;

interface Claims {
  request: AuthorizationRequest;
  exp: number;
}

const secrets = new WeakMap<Db, Promise<string>>();

/** Key separation: the upload signer and the consent signer never share a key. */
export function consentSecret(db: Db): Promise<string> {
  let secret = secrets.get(db);
  if (!secret) {
    secret = instanceSecret(db).then((root) => hmacHex(root, "brainbox oauth consent form"));
    secret.catch(() => secrets.delete(db));
    secrets.set(db, secret);
  }
  return secret;
}

export function signConsent(secret: string, request: AuthorizationRequest, now = Date.now()): string {
  const body = Buffer.from(JSON.stringify({ request, exp: now + CONSENT_FORM_TTL_MS } satisfies Claims)).toString("base64url");
  return `${body}.${hmacHex(secret, body)}`;
}

/** The request the form was rendered for, or null when the token is forged, altered or expired. */
export function verifyConsent(secret: string, token: unknown, now = Date.now()): AuthorizationRequest | null {
  if (typeof token !== "string") return null;
  const [body, mac, extra] = token.split(".");
  if (!body || !mac || extra !== undefined || !safeEqual(mac, hmacHex(secret, body))) return null;
  try {
    const claims = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as Claims;
    return claims.exp > now ? claims.request : null;
  } catch {
    return null;
  }
}
