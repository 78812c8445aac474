// API keys and bearer authentication. Keys are high-entropy, so a plain SHA-256 is the right hash: the
// lookup is by hash, then compared again in constant time.
import { and, desc, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { prepared } from "../../db/prepared";
import { accounts, apiKeys } from "../../db/schema";
import { recordQuietly } from "../../lib/bookkeeping";
import { AppError, invalid, notFound } from "../../lib/errors";
import type { Logger } from "../../lib/log";
import { newId, randomBase62, safeEqual, sha256Hex } from "../../lib/secrets";
import { keyCache } from "./key-cache";

export const API_KEY_PREFIX = "bb_live_";
/** OAuth access tokens (connectors) share the guard; their prefix tells them apart. */
export const ACCESS_TOKEN_PREFIX = "bb_at_";
/** 43 base62 characters ≈ 256 bits. */
const SECRET_LENGTH = 43;

export interface NewApiKey {
  id: string;
  name: string;
  key: string;
  prefix: string;
  hint: string;
  createdAt: string;
  readOnly: boolean;
  expiresAt: string | null;
}

/** What a key may be made as (issue 56): read-only (ask, context, reads) and/or expiring. */
export interface KeyOptions {
  readOnly?: boolean;
  /** Unix ms after which the key answers 401; must be in the future. */
  expiresAt?: number | null;
}

export interface ApiKeyView {
  id: string;
  name: string;
  prefix: string;
  hint: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  readOnly: boolean;
  expiresAt: string | null;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export async function createApiKey(db: Db, accountId: string, name: string, options: KeyOptions = {}): Promise<NewApiKey> {
  const expiresAt = options.expiresAt ?? null;
  if (expiresAt !== null && (!Number.isFinite(expiresAt) || expiresAt <= Date.now())) throw invalid("expiresAt", "expiresAt must be in the future");
  const key = API_KEY_PREFIX + randomBase62(SECRET_LENGTH);
  const hint = `${API_KEY_PREFIX}…${key.slice(-4)}`;
  const [row] = await db
    .insert(apiKeys)
    .values({ id: newId("key"), accountId, name, hash: sha256Hex(key), hint, readOnly: options.readOnly ?? false, expiresAt })
    .returning();
  return {
    id: row!.id,
    name: row!.name,
    key,
    prefix: API_KEY_PREFIX,
    hint,
    createdAt: iso(row!.createdAt)!,
    readOnly: row!.readOnly,
    expiresAt: iso(row!.expiresAt),
  };
}

export async function listApiKeys(db: Db, accountId: string): Promise<ApiKeyView[]> {
  const rows = await db.query.apiKeys.findMany({
    where: eq(apiKeys.accountId, accountId),
    orderBy: desc(apiKeys.createdAt),
  });
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    prefix: API_KEY_PREFIX,
    hint: r.hint,
    createdAt: iso(r.createdAt)!,
    lastUsedAt: iso(r.lastUsedAt),
    revokedAt: iso(r.revokedAt),
    readOnly: r.readOnly,
    expiresAt: iso(r.expiresAt),
  }));
}

export async function revokeApiKey(db: Db, accountId: string, keyId: string): Promise<void> {
  const rows = await db
    .update(apiKeys)
    .set({ revokedAt: Date.now() })
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.accountId, accountId), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  if (rows.length === 0) {
    const exists = await db.query.apiKeys.findFirst({ where: and(eq(apiKeys.id, keyId), eq(apiKeys.accountId, accountId)) });
    if (!exists) throw notFound("API key");
  }
}

export type { Principal, TokenResolver } from "../../context";
import type { Principal, TokenResolver } from "../../context";

const unauthorized = (message: string) => new AppError("unauthorized", message);

/** Resolves an `Authorization: Bearer` value to its account, or throws 401. */
export async function authenticate(
  db: Db,
  authorization: string | undefined,
  resolvers: { accessToken?: TokenResolver; log?: Logger } = {},
): Promise<Principal> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
  if (!match) throw unauthorized("Missing bearer credentials: send Authorization: Bearer <API key>");
  const token = match[1]!;
  if (token.startsWith(ACCESS_TOKEN_PREFIX) && resolvers.accessToken) {
    const principal = await resolvers.accessToken(db, token, resolvers.log);
    if (principal) return principal;
    throw unauthorized("Invalid, expired or revoked access token");
  }
  if (!token.startsWith(API_KEY_PREFIX)) throw unauthorized("Invalid API key");
  const hash = sha256Hex(token);
  // One indexed lookup gives the key and its account, remembered while the database is unchanged
  // (key-cache.ts: a revocation or plan change applies to the next request in this process, within 1 ms
  // in other processes on the same file). The version is read before the lookup, so a change that lands
  // during it is never cached as current.
  const cache = keyCache(db);
  const version = cache.version();
  let key = cache.get(hash, version);
  if (!key) {
    const row = await keyWithAccount(db).execute({ hash });
    if (!row || !safeEqual(row.key.hash, hash) || row.key.revokedAt !== null) throw unauthorized("Invalid or revoked API key");
    // Deactivation revokes the person's keys too; this also covers a key minted for them afterwards.
    if (row.account.deactivatedAt !== null) throw unauthorized("This account is deactivated");
    // Frozen: every request with this key shares the account object.
    key = {
      keyId: row.key.id,
      account: Object.freeze(row.account),
      lastUsedAt: row.key.lastUsedAt,
      version: version ?? -1,
      readOnly: row.key.readOnly,
      expiresAt: row.key.expiresAt,
    };
    if (version !== null) cache.set(hash, key);
  }
  // Checked on every request, cached or not: time passes while the database stays unchanged.
  if (key.expiresAt !== null && key.expiresAt <= Date.now()) throw unauthorized("This API key has expired");
  // Coarse last-used stamp: one write per key per minute at most (per process). Stamped in memory first,
  // so concurrent requests do not all write.
  const now = Date.now();
  if (!key.lastUsedAt || now - key.lastUsedAt > LAST_USED_INTERVAL_MS) {
    key.lastUsedAt = now;
    const keyId = key.keyId;
    await recordQuietly("api key last used", () => db.update(apiKeys).set({ lastUsedAt: now }).where(eq(apiKeys.id, keyId)), resolvers.log);
  }
  if (key.readOnly) return { account: key.account, via: "api_key", credentialId: key.keyId, scopes: READ_ONLY_SCOPES, readOnly: true };
  return { account: key.account, via: "api_key", credentialId: key.keyId };
}

/** Is this `Authorization` value a credential that authenticates right now? (For the failed-auth limiter.) */
export async function isValidCredential(db: Db, authorization: string | undefined, resolvers: { accessToken?: TokenResolver } = {}): Promise<boolean> {
  try {
    await authenticate(db, authorization, resolvers);
    return true;
  } catch {
    return false;
  }
}

const LAST_USED_INTERVAL_MS = 60_000;

/** A read-only key acts like a token with these scopes: ask, context and reads (brains, pages, its plan) (never a write or an owner-only route). */
export const READ_ONLY_SCOPES: ReadonlySet<string> = Object.freeze(new Set(["brains:read", "ask", "account:read"]));

// Prepared once per database handle (db/prepared.ts): building the SQL cost as much as running it.
const keyWithAccountQuery = (db: Db) =>
  prepared(db, "auth.keyWithAccount", (d) =>
    d
      .select({
        key: { id: apiKeys.id, hash: apiKeys.hash, revokedAt: apiKeys.revokedAt, lastUsedAt: apiKeys.lastUsedAt, readOnly: apiKeys.readOnly, expiresAt: apiKeys.expiresAt },
        account: accounts,
      })
      .from(apiKeys)
      .innerJoin(accounts, eq(accounts.id, apiKeys.accountId))
      .where(eq(apiKeys.hash, sql.placeholder("hash")))
      .limit(1)
      .prepare(),
  );
const keyWithAccount = (db: Db) => ({
  execute: async (values: { hash: string }) => (await keyWithAccountQuery(db).execute(values))[0],
});
