// The session cookie: HttpOnly, SameSite=Lax (a citation link opened from a chat or another site is a
// top-level GET and carries it; a cross-site POST does not, and the guard checks Origin anyway), Secure
// and `__Host-` prefixed (Path=/, no Domain: no subdomain can set or shadow it) when served over https.
const SECRET = /^bb_ws_[0-9A-Za-z]{43}$/;

export const SESSION_SECRET_PREFIX = "bb_ws_";

export const sessionCookieName = (publicUrl: string) => (publicUrl.startsWith("https:") ? "__Host-bb_session" : "bb_session");

/**
 * Secure when the public URL is https, or the request itself came over https (directly, or as a proxy in
 * front says with X-Forwarded-Proto). An untrusted X-Forwarded-Proto can only make the cookie stricter.
 */
export function servedOverHttps(publicUrl: string, request?: Request): boolean {
  if (publicUrl.startsWith("https:")) return true;
  if (!request) return false;
  if (request.url.startsWith("https:")) return true;
  return request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase() === "https";
}

export function sessionCookie(publicUrl: string, value: string, maxAgeSeconds: number, request?: Request): string {
  const secure = servedOverHttps(publicUrl, request) ? "; Secure" : "";
  return `${sessionCookieName(publicUrl)}=${value}; Path=/; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${secure}`;
}

/** The session secret from a Cookie header, when it has the right shape. */
export function sessionSecretFrom(cookieHeader: string | null, publicUrl: string): string | null {
  if (!cookieHeader) return null;
  const name = sessionCookieName(publicUrl);
  for (const part of cookieHeader.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    const value = part.slice(eq + 1).trim();
    if (SECRET.test(value)) return value;
  }
  return null;
}
