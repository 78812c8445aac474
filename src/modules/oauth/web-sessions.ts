// Web sessions: the admin page, once signed in with a key, asks for a cookie (POST /api/v1/web-session) so
// the OAuth consent page in the same browser knows who is there and can offer Allow/Deny without a pasted
// key. The cookie holds a random secret; only its SHA-256 is stored; sessions expire, are revoked on
// sign-out, and die with the key (or grant) that created them. The cookie is never an API credential: the
// API stays bearer-only, so it adds no cross-site request risk there.
import { and, eq, isNull, lt, or } from "drizzle-orm";
import type { RootDb } from "../../db/client";
import { apiKeys, oauthGrants, webSessions } from "../../db/schema";
import { hmacHex, randomBase62, safeEqual, sha256Hex } from "../../lib/secrets";
import { getAccount, type Account } from "../accounts/service";
import type { Principal } from "../auth/keys";

export const WEB_SESSION_TTL_MS = 12 * 3600_000;
const SECRET_PREFIX = "bb_ws_";
const SECRET = /^bb_ws_[0-9A-Za-z]{43}$/;

export interface WebSession {
  hash: string;
  account: Account;
  via: "api_key" | "access_token";
}

/** `__Host-` (Secure, Path=/, no Domain: no subdomain can set or shadow it) when served over https. */
export const sessionCookieName = (publicUrl: string) => (publicUrl.startsWith("https:") ? "__Host-bb_session" : "bb_session");

export function sessionCookie(publicUrl: string, value: string, maxAgeSeconds: number): string {
  const secure = publicUrl.startsWith("https:") ? "; Secure" : "";
  return `${sessionCookieName(publicUrl)}=${value}; Path=/; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Strict${secure}`;
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

/** The per-session CSRF token of the consent form: bound to this session, useless without its cookie. */
export const csrfTokenFor = (signingSecret: string, session: WebSession) => hmacHex(signingSecret, `web-session csrf ${session.hash}`);

export function csrfMatches(signingSecret: string, session: WebSession, token: unknown): boolean {
  return typeof token === "string" && safeEqual(token, csrfTokenFor(signingSecret, session));
}

export async function createWebSession(db: RootDb, principal: Principal): Promise<{ secret: string; expiresAt: number }> {
  const secret = SECRET_PREFIX + randomBase62(43);
  const now = Date.now();
  const expiresAt = now + WEB_SESSION_TTL_MS;
  await db.batch([
    // Sessions that ended (expired or signed out) more than a day ago are swept on each sign-in.
    db.delete(webSessions).where(or(lt(webSessions.expiresAt, now - 24 * 3600_000), lt(webSessions.revokedAt, now - 24 * 3600_000))),
    db.insert(webSessions).values({ hash: sha256Hex(secret), accountId: principal.account.id, via: principal.via, credentialId: principal.credentialId, expiresAt }),
  ]);
  return { secret, expiresAt };
}

/** A live session: not expired, not signed out, and the key or grant that opened it still live. */
export async function resolveWebSession(db: RootDb, secret: string | null): Promise<WebSession | null> {
  if (!secret) return null;
  const hash = sha256Hex(secret);
  const row = await db.query.webSessions.findFirst({ where: eq(webSessions.hash, hash) });
  if (!row || row.revokedAt !== null || row.expiresAt <= Date.now() || !safeEqual(row.hash, hash)) return null;
  const live =
    row.via === "api_key"
      ? await db.query.apiKeys.findFirst({ where: and(eq(apiKeys.id, row.credentialId), isNull(apiKeys.revokedAt)) })
      : await db.query.oauthGrants.findFirst({ where: and(eq(oauthGrants.id, row.credentialId), isNull(oauthGrants.revokedAt)) });
  if (!live) return null;
  return { hash, account: await getAccount(db, row.accountId), via: row.via };
}

export async function revokeWebSession(db: RootDb, secret: string | null): Promise<void> {
  if (!secret) return;
  await db.update(webSessions).set({ revokedAt: Date.now() }).where(and(eq(webSessions.hash, sha256Hex(secret)), isNull(webSessions.revokedAt)));
}
