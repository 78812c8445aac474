// Grants: one approved connection of a client to an account. Revoking one ends all of its tokens at
// once (the token resolver also checks the grant, so nothing issued under it works afterwards).
import { and, desc, eq, isNull } from "drizzle-orm";
import type { RootDb } from "../../db/client";
import { oauthClients, oauthGrants, oauthTokens } from "../../db/schema";
import { notFound } from "../../lib/errors";

export interface GrantView {
  id: string;
  client: { id: string; name: string; uri: string | null };
  scope: string;
  resource: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const LIST_LIMIT = 500;

export async function listGrants(db: RootDb, accountId: string): Promise<GrantView[]> {
  const rows = await db
    .select({ grant: oauthGrants, client: { id: oauthClients.id, name: oauthClients.name, metadata: oauthClients.metadata } })
    .from(oauthGrants)
    .innerJoin(oauthClients, eq(oauthClients.id, oauthGrants.clientId))
    .where(eq(oauthGrants.accountId, accountId))
    .orderBy(desc(oauthGrants.createdAt), desc(oauthGrants.id))
    .limit(LIST_LIMIT);
  return rows.map(({ grant, client }) => ({
    id: grant.id,
    client: { id: client.id, name: client.name, uri: typeof client.metadata.client_uri === "string" ? client.metadata.client_uri : null },
    scope: grant.scope,
    resource: grant.resource,
    createdAt: iso(grant.createdAt)!,
    lastUsedAt: iso(grant.lastUsedAt),
    revokedAt: iso(grant.revokedAt),
  }));
}

/** Revokes the grant and every token issued under it, in one batch. */
export async function revokeGrantById(db: RootDb, grantId: string): Promise<number> {
  const now = Date.now();
  const [grants] = await db.batch([
    db.update(oauthGrants).set({ revokedAt: now }).where(and(eq(oauthGrants.id, grantId), isNull(oauthGrants.revokedAt))).returning({ id: oauthGrants.id }),
    db
      .update(oauthTokens)
      .set({ revokedAt: now, revokedReason: "revoked" })
      .where(and(eq(oauthTokens.grantId, grantId), isNull(oauthTokens.revokedAt))),
  ]);
  return grants.length;
}

/** The owner revokes a connection; revoking one twice is fine, someone else's is 404. */
export async function revokeGrant(db: RootDb, accountId: string, grantId: string): Promise<void> {
  const grant = await db.query.oauthGrants.findFirst({ where: and(eq(oauthGrants.id, grantId), eq(oauthGrants.accountId, accountId)) });
  if (!grant) throw notFound("Grant");
  await revokeGrantById(db, grantId);
}
