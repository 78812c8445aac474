// Access and refresh tokens: minted at the code exchange, rotated at every refresh, stored as SHA-256
// hashes. Every write is a single conditional statement or one db.batch (no interactive transaction
// while serving, src/db/client.ts): a code or a refresh token is spent by exactly one request.
import { and, eq, gt, inArray, isNull, lt } from "drizzle-orm";
import type { Config } from "../../config";
import type { RootDb } from "../../db/client";
import { oauthCodes, oauthGrants, oauthTokens } from "../../db/schema";
import { recordQuietly } from "../../lib/bookkeeping";
import { newId, randomBase62, safeEqual, sha256Hex } from "../../lib/secrets";
import { getAccount } from "../accounts/service";
import { recordAudit } from "../audit/record";
import { ACCESS_TOKEN_PREFIX, type TokenResolver } from "../auth/keys";
import { grantedScopes, knownScopes } from "../auth/scopes";
import { resourceProblem } from "./authorize";
import type { OAuthClient } from "./clients";
import { consumeCode } from "./codes";
import { OAuthError } from "./errors";
import { revokeGrantById } from "./grants";
import { pkceMatches } from "./pkce";

export const REFRESH_TOKEN_PREFIX = "bb_rt_";
/** 43 base62 characters ≈ 256 bits (more than 32 random bytes). */
const SECRET_LENGTH = 43;

export interface TokenResponse {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  refresh_token?: string;
  scope: string;
}

type Form = Record<string, string>;
const invalidGrant = (description: string) => new OAuthError("invalid_grant", description);

function required(form: Form, name: string): string {
  const value = form[name];
  if (!value) throw new OAuthError("invalid_request", `${name} is required`);
  return value;
}

export function tokenService(deps: { db: RootDb; config: Config; publicUrl: () => string }) {
  const { db, config } = deps;

  /** New tokens for a grant, as insert statements plus the response that names them. */
  function mint(grantId: string, scope: string, withRefresh: boolean) {
    const now = Date.now();
    const access = ACCESS_TOKEN_PREFIX + randomBase62(SECRET_LENGTH);
    const refresh = withRefresh ? REFRESH_TOKEN_PREFIX + randomBase62(SECRET_LENGTH) : null;
    const rows: (typeof oauthTokens.$inferInsert)[] = [{ hash: sha256Hex(access), kind: "access", grantId, expiresAt: now + config.oauthAccessTtlSeconds * 1000 }];
    if (refresh) rows.push({ hash: sha256Hex(refresh), kind: "refresh", grantId, expiresAt: now + config.oauthRefreshTtlSeconds * 1000 });
    const response: TokenResponse = {
      access_token: access,
      token_type: "Bearer",
      expires_in: config.oauthAccessTtlSeconds,
      ...(refresh ? { refresh_token: refresh } : {}),
      scope,
    };
    return { insert: db.insert(oauthTokens).values(rows), response };
  }

  /** RFC 6749 §6: a refresh may not ask for a known scope its grant lacks (checked before the token is spent). */
  async function refuseWidening(hash: string, scope: string) {
    const [row] = await db
      .select({ scope: oauthGrants.scope })
      .from(oauthTokens)
      .innerJoin(oauthGrants, eq(oauthGrants.id, oauthTokens.grantId))
      .where(eq(oauthTokens.hash, hash));
    if (!row) return;
    const granted = grantedScopes(row.scope);
    if (knownScopes(scope).some((s) => !granted.has(s))) throw new OAuthError("invalid_scope", "The refresh asks for scopes the grant does not have");
  }

  /** Expired tokens of a grant are swept whenever it gets new ones. */
  const sweep = (grantId: string) =>
    db.delete(oauthTokens).where(and(eq(oauthTokens.grantId, grantId), lt(oauthTokens.expiresAt, Date.now() - 24 * 3600_000)));

  return {
    /** grant_type=authorization_code: the code once, from its client, with its redirect URI and PKCE verifier. */
    async exchangeCode(client: OAuthClient, form: Form): Promise<TokenResponse> {
      const code = required(form, "code");
      const redirectUri = required(form, "redirect_uri");
      const verifier = required(form, "code_verifier");
      if (form.resource) {
        const problem = resourceProblem(form.resource, deps.publicUrl());
        if (problem) throw new OAuthError("invalid_target", problem);
      }
      const consumed = await consumeCode(db, code);
      if ("spent" in consumed) {
        // RFC 6749 §4.1.2: a code used twice revokes what it granted (someone else may hold it).
        if (consumed.spent?.grantId && (await revokeGrantById(db, consumed.spent.grantId)) > 0)
          await recordAudit(db, { action: "token.revoked", target: { kind: "grant", id: consumed.spent.grantId }, details: { reason: "authorization code used twice" } });
        throw invalidGrant("The authorization code is invalid or was already used");
      }
      const row = consumed.fresh;
      // The code is spent whatever happens next: a failed attempt means someone else may hold it.
      if (row.expiresAt <= Date.now()) throw invalidGrant("The authorization code has expired");
      if (row.clientId !== client.id) throw invalidGrant("The authorization code was issued to another client");
      if (row.redirectUri !== redirectUri) throw invalidGrant("redirect_uri does not match the authorization request");
      if (!pkceMatches(verifier, row.codeChallenge)) throw invalidGrant("code_verifier does not match the code_challenge");

      const grantId = newId("grt");
      const tokens = mint(grantId, row.scope, client.grantTypes.includes("refresh_token"));
      await db.batch([
        db.insert(oauthGrants).values({ id: grantId, accountId: row.accountId, clientId: client.id, scope: row.scope, resource: row.resource }),
        tokens.insert,
        db.update(oauthCodes).set({ grantId }).where(eq(oauthCodes.hash, row.hash)),
      ]);
      await recordAudit(db, { action: "token.granted", actorId: row.accountId, target: { kind: "grant", id: grantId }, details: { clientId: client.id, client: client.name, scope: row.scope } });
      return tokens.response;
    },

    /** grant_type=refresh_token: rotates; presenting a rotated refresh token again revokes the grant. */
    async refresh(client: OAuthClient, form: Form): Promise<TokenResponse> {
      const token = required(form, "refresh_token");
      if (!client.grantTypes.includes("refresh_token")) throw new OAuthError("unauthorized_client", "This client did not register the refresh_token grant");
      const hash = sha256Hex(token);
      if (form.scope) await refuseWidening(hash, form.scope);
      const now = Date.now();
      const liveGrantsOfClient = db
        .select({ id: oauthGrants.id })
        .from(oauthGrants)
        .where(and(eq(oauthGrants.clientId, client.id), isNull(oauthGrants.revokedAt)));
      const [rotated] = await db
        .update(oauthTokens)
        .set({ revokedAt: now, revokedReason: "rotated" })
        .where(
          and(
            eq(oauthTokens.hash, hash),
            eq(oauthTokens.kind, "refresh"),
            isNull(oauthTokens.revokedAt),
            gt(oauthTokens.expiresAt, now),
            inArray(oauthTokens.grantId, liveGrantsOfClient),
          ),
        )
        .returning({ grantId: oauthTokens.grantId });
      if (!rotated) {
        const old = await db.query.oauthTokens.findFirst({ where: eq(oauthTokens.hash, hash) });
        if (old?.kind === "refresh" && old.revokedReason === "rotated") {
          const grant = await db.query.oauthGrants.findFirst({ where: eq(oauthGrants.id, old.grantId) });
          // A replayed refresh token: one of the two holders is not the client. End the whole grant.
          if (grant?.clientId === client.id) await revokeGrantById(db, grant.id);
        }
        throw invalidGrant("The refresh token is invalid, expired, revoked or was already used");
      }
      const grant = (await db.query.oauthGrants.findFirst({ where: eq(oauthGrants.id, rotated.grantId) }))!;
      const tokens = mint(grant.id, grant.scope, true);
      await db.batch([tokens.insert, sweep(grant.id), db.update(oauthGrants).set({ lastUsedAt: now }).where(eq(oauthGrants.id, grant.id))]);
      return tokens.response;
    },

    /** RFC 7009: a refresh token ends its grant; an access token ends itself. Unknown tokens are not an error. */
    async revoke(client: OAuthClient, form: Form): Promise<void> {
      const token = required(form, "token");
      const hash = sha256Hex(token);
      const [row] = await db
        .select({ kind: oauthTokens.kind, grantId: oauthTokens.grantId, clientId: oauthGrants.clientId })
        .from(oauthTokens)
        .innerJoin(oauthGrants, eq(oauthGrants.id, oauthTokens.grantId))
        .where(eq(oauthTokens.hash, hash));
      if (!row || row.clientId !== client.id) return;
      if (row.kind === "refresh") await revokeGrantById(db, row.grantId);
      else await db.update(oauthTokens).set({ revokedAt: Date.now(), revokedReason: "revoked" }).where(and(eq(oauthTokens.hash, hash), isNull(oauthTokens.revokedAt)));
      await recordAudit(db, { action: "token.revoked", target: { kind: "grant", id: row.grantId }, details: { kind: row.kind, by: "client", clientId: client.id } });
    },
  };
}

export type TokenService = ReturnType<typeof tokenService>;

/** ctx.accessTokens: a live access token of a live grant → its account and the grant's scopes. */
export const resolveAccessToken: TokenResolver = async (db, token, log) => {
  const hash = sha256Hex(token);
  const [row] = await db
    .select({
      hash: oauthTokens.hash,
      kind: oauthTokens.kind,
      expiresAt: oauthTokens.expiresAt,
      revokedAt: oauthTokens.revokedAt,
      grantId: oauthGrants.id,
      accountId: oauthGrants.accountId,
      grantRevokedAt: oauthGrants.revokedAt,
      scope: oauthGrants.scope,
      lastUsedAt: oauthGrants.lastUsedAt,
    })
    .from(oauthTokens)
    .innerJoin(oauthGrants, eq(oauthGrants.id, oauthTokens.grantId))
    .where(eq(oauthTokens.hash, hash));
  const now = Date.now();
  if (!row || row.kind !== "access" || !safeEqual(row.hash, hash)) return null;
  if (row.revokedAt !== null || row.grantRevokedAt !== null || row.expiresAt <= now) return null;
  // Coarse last-used stamp, as for API keys: one write per grant per minute at most.
  if (!row.lastUsedAt || now - row.lastUsedAt > 60_000)
    await recordQuietly("grant last used", () => db.update(oauthGrants).set({ lastUsedAt: now }).where(eq(oauthGrants.id, row.grantId)), log);
  const account = await getAccount(db, row.accountId);
  if (account.deactivatedAt !== null) return null;
  return { account, via: "access_token", credentialId: row.grantId, scopes: grantedScopes(row.scope) };
};
