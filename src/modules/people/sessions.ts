// A person's session: one kind, however it was opened (a password, single sign-on, or an API key the admin
// page handed to the browser). The cookie holds a random secret; only its SHA-256 is stored. A session has
// an idle expiry (from its last request, stamped at most once a minute) and an absolute one, ends at sign
// out, at "sign out everywhere", at the person's deactivation, and, when an API key opened it, with that key.
//
// `openSession` is the one way in: the password sign-in, the setup link and single sign-on all call it.
import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { Config } from "../../config";
import type { AppContext, Principal } from "../../context";
import type { Db, RootDb } from "../../db/client";
import { prepared } from "../../db/prepared";
import { accounts, apiKeys, webSessions, type SessionMethod } from "../../db/schema";
import { clientAddressOf } from "../../http/client-address";
import { recordQuietly } from "../../lib/bookkeeping";
import { AppError } from "../../lib/errors";
import type { Logger } from "../../lib/log";
import { newId, randomBase62, safeEqual, sha256Hex } from "../../lib/secrets";
import { getAccount } from "../accounts/service";
import { recordAudit } from "../audit/record";
import { SESSION_SECRET_PREFIX, sessionCookie, sessionSecretFrom } from "./cookie";
import { sessionCache, type LiveSession } from "./session-store";

export type { LiveSession } from "./session-store";

export interface SessionPolicy {
  idleMs: number;
  maxMs: number;
}

export const sessionPolicy = (config: Pick<Config, "sessionIdleMinutes" | "sessionMaxHours">): SessionPolicy => ({
  idleMs: config.sessionIdleMinutes * 60_000,
  maxMs: config.sessionMaxHours * 3600_000,
});

/** How often the last-seen stamp is written (the idle expiry is this coarse). */
const TOUCH_INTERVAL_MS = 60_000;
/** Ended sessions are kept this long (the audit log names them), then swept at a sign-in. */
const KEEP_ENDED_MS = 24 * 3600_000;

export interface OpenSessionOptions {
  method: SessionMethod;
  /** The API key that opened it (`api_key`): the session ends with the key. */
  credentialId?: string;
  /** Extra audit details (an OIDC issuer, say). */
  details?: Record<string, unknown>;
}

export interface OpenedSession {
  id: string;
  secret: string;
  expiresAt: number;
  /** The Set-Cookie value to send with the answer. */
  setCookie: string;
}

/**
 * Opens a session for a person and answers the cookie that carries it. The session the browser presented
 * (if any) ends first: the cookie is a new secret at every sign-in (no session fixation).
 */
export async function openSession(ctx: AppContext, accountId: string, request: Request, options: OpenSessionOptions): Promise<OpenedSession> {
  const account = await getAccount(ctx.db, accountId);
  if (account.deactivatedAt !== null) throw new AppError("unauthorized", "This account is deactivated");
  const policy = sessionPolicy(ctx.config);
  const previous = sessionSecretFrom(request.headers.get("cookie"), ctx.publicUrl());
  const secret = SESSION_SECRET_PREFIX + randomBase62(43);
  const now = Date.now();
  const id = newId("ses");
  const ip = clientAddressOf(request);
  await ctx.db.batch([
    ctx.db.delete(webSessions).where(or(lt(webSessions.expiresAt, now - KEEP_ENDED_MS), lt(webSessions.revokedAt, now - KEEP_ENDED_MS))),
    ctx.db
      .update(webSessions)
      .set({ revokedAt: now })
      .where(and(eq(webSessions.hash, sha256Hex(previous ?? "")), isNull(webSessions.revokedAt))),
    ctx.db.insert(webSessions).values({
      hash: sha256Hex(secret),
      id,
      accountId,
      via: options.method,
      credentialId: options.credentialId ?? null,
      lastSeenAt: now,
      expiresAt: now + policy.maxMs,
      ip,
    }),
  ]);
  await recordAudit(
    ctx.db,
    { action: "session.signed_in", actorId: account.id, actorLabel: account.email ?? account.name, target: { kind: "session", id }, ip, details: { method: options.method, ...options.details } },
    ctx.log,
  );
  return { id, secret, expiresAt: now + policy.maxMs, setCookie: sessionCookie(ctx.publicUrl(), secret, Math.floor(policy.maxMs / 1000), request) };
}

/** The Set-Cookie value that clears the cookie. */
export const clearedSessionCookie = (ctx: AppContext, request?: Request) => sessionCookie(ctx.publicUrl(), "", 0, request);

/** A live session for a cookie's secret, or null (unknown, ended, expired, its person deactivated or its key revoked). */
export async function resolveSession(db: Db, policy: SessionPolicy, secret: string | null, log?: Logger): Promise<LiveSession | null> {
  if (!secret) return null;
  const hash = sha256Hex(secret);
  const cache = sessionCache(db);
  const version = cache.version();
  let session = cache.get(hash, version);
  if (!session) {
    const row = (await sessionWithAccount(db).execute({ hash }))[0];
    if (!row || !safeEqual(row.session.hash, hash) || !isLive(row)) return null;
    session = { ...row.session, via: row.session.via as SessionMethod, account: Object.freeze(row.account) };
    cache.set(session, version);
  }
  const now = Date.now();
  if (session.expiresAt <= now || now - session.lastSeenAt >= policy.idleMs) return null;
  if (now - session.lastSeenAt > TOUCH_INTERVAL_MS) {
    session.lastSeenAt = now;
    const sessionHash = session.hash;
    await recordQuietly("session last seen", () => db.update(webSessions).set({ lastSeenAt: now }).where(eq(webSessions.hash, sessionHash)), log);
  }
  return session;
}

type Row = Awaited<ReturnType<ReturnType<typeof sessionWithAccount>["execute"]>>[number];

function isLive(row: Row): boolean {
  if (row.revokedAt !== null || row.account.deactivatedAt !== null) return false;
  // Sessions opened with a connector's access token (before this rule) never act as a person.
  if (row.session.via === "access_token") return false;
  if (row.session.via === "api_key") return row.keyId !== null && row.keyRevokedAt === null;
  return true;
}

// Prepared once per database handle: every cookie-authenticated request runs it (when not cached).
const sessionWithAccount = (db: Db) =>
  prepared(db, "people.sessionWithAccount", (d) =>
    d
      .select({
        session: {
          id: webSessions.id,
          hash: webSessions.hash,
          via: webSessions.via,
          credentialId: webSessions.credentialId,
          lastSeenAt: webSessions.lastSeenAt,
          expiresAt: webSessions.expiresAt,
        },
        revokedAt: webSessions.revokedAt,
        account: accounts,
        keyId: apiKeys.id,
        keyRevokedAt: apiKeys.revokedAt,
      })
      .from(webSessions)
      .innerJoin(accounts, eq(accounts.id, webSessions.accountId))
      .leftJoin(apiKeys, and(eq(webSessions.via, "api_key"), eq(apiKeys.id, webSessions.credentialId)))
      .where(eq(webSessions.hash, sql.placeholder("hash")))
      .limit(1)
      .prepare(),
  );

/** Ends the session of this cookie secret; answers it (for the audit log) when it was live. */
export async function closeSession(db: RootDb, secret: string | null): Promise<{ id: string; accountId: string } | null> {
  if (!secret) return null;
  const [row] = await db
    .update(webSessions)
    .set({ revokedAt: Date.now() })
    .where(and(eq(webSessions.hash, sha256Hex(secret)), isNull(webSessions.revokedAt)))
    .returning({ id: webSessions.id, accountId: webSessions.accountId });
  return row ?? null;
}

/** Ends every session of a person (sign out everywhere, a password change, a deactivation); answers how many. */
export async function closeAllSessions(db: Db, accountId: string): Promise<number> {
  const rows = await db
    .update(webSessions)
    .set({ revokedAt: Date.now() })
    .where(and(eq(webSessions.accountId, accountId), isNull(webSessions.revokedAt)))
    .returning({ id: webSessions.id });
  return rows.length;
}

/** ctx.sessions: the person behind a request's session cookie, acting as their own key. */
export function sessionResolver(ctx: Pick<AppContext, "db" | "config" | "publicUrl" | "log">): (request: Request) => Promise<Principal | null> {
  const policy = sessionPolicy(ctx.config);
  return async (request) => {
    const session = await resolveSession(ctx.db, policy, sessionSecretFrom(request.headers.get("cookie"), ctx.publicUrl()), ctx.log);
    return session ? { account: session.account, via: "session", credentialId: session.id } : null;
  };
}
