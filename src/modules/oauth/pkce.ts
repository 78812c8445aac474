// PKCE S256 (RFC 7636 §4.6): BASE64URL(SHA256(code_verifier)) must equal the code_challenge.
import { createHash } from "node:crypto";
import { safeEqual } from "../../lib/secrets";

/** RFC 7636 §4.1: 43 to 128 unreserved characters. */
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

export function pkceMatches(verifier: string, challenge: string): boolean {
  if (!VERIFIER.test(verifier)) return false;
  return safeEqual(createHash("sha256").update(verifier).digest("base64url"), challenge);
}
