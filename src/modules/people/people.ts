// The server admin's view of people: list, deactivate (every credential of the person ends at once), and
// reactivate. Deactivation writes the database, which changes its change version: every replica's key and
// session caches drop what they hold at their next request (auth/key-cache.ts), so nothing cached survives.
import { and, eq, inArray, isNull } from "drizzle-orm";
import type { RootDb } from "../../db/client";
import { accounts, apiKeys, oauthGrants, oauthTokens, webSessions } from "../../db/schema";
import { AppError, notFound } from "../../lib/errors";
import { type Account } from "../accounts/service";

export async function listPeople(db: RootDb): Promise<Account[]> {
  return db.query.accounts.findMany({ orderBy: accounts.createdAt });
}

/** Deactivates a person and ends their sessions, API keys and OAuth grants (with their tokens) in one batch. */
export async function deactivatePerson(db: RootDb, actor: Account, personId: string): Promise<{ account: Account; ended: { sessions: number; keys: number; grants: number } }> {
  if (personId === actor.id) throw new AppError("conflict", "You cannot deactivate yourself: another admin can");
  const now = Date.now();
  const grantIds = db.select({ id: oauthGrants.id }).from(oauthGrants).where(and(eq(oauthGrants.accountId, personId), isNull(oauthGrants.revokedAt)));
  const [people, sessions, keys, , grants] = await db.batch([
    db.update(accounts).set({ deactivatedAt: now }).where(and(eq(accounts.id, personId), isNull(accounts.deactivatedAt))).returning(),
    db.update(webSessions).set({ revokedAt: now }).where(and(eq(webSessions.accountId, personId), isNull(webSessions.revokedAt))).returning({ id: webSessions.id }),
    db.update(apiKeys).set({ revokedAt: now }).where(and(eq(apiKeys.accountId, personId), isNull(apiKeys.revokedAt))).returning({ id: apiKeys.id }),
    db.update(oauthTokens).set({ revokedAt: now, revokedReason: "revoked" }).where(and(inArray(oauthTokens.grantId, grantIds), isNull(oauthTokens.revokedAt))),
    db.update(oauthGrants).set({ revokedAt: now }).where(and(eq(oauthGrants.accountId, personId), isNull(oauthGrants.revokedAt))).returning({ id: oauthGrants.id }),
  ]);
  const account = people[0] ?? (await db.query.accounts.findFirst({ where: eq(accounts.id, personId) }));
  if (!account) throw notFound("Person");
  return { account, ended: { sessions: sessions.length, keys: keys.length, grants: grants.length } };
}

/** Lets a person sign in again. Their old keys and connections stay revoked: they make new ones. */
export async function reactivatePerson(db: RootDb, personId: string): Promise<Account> {
  const [row] = await db.update(accounts).set({ deactivatedAt: null }).where(eq(accounts.id, personId)).returning();
  if (!row) throw notFound("Person");
  return row;
}
