// Authorization codes: stored hashed, short-lived, single use. Consuming is ONE conditional UPDATE, so of
// two concurrent exchanges exactly one wins; a code presented again revokes what its exchange granted.
import { and, eq, isNull, lt } from "drizzle-orm";
import type { RootDb } from "../../db/client";
import { oauthCodes } from "../../db/schema";
import { randomBase62, sha256Hex } from "../../lib/secrets";
import type { AuthorizationRequest } from "./authorize";

export type CodeRow = typeof oauthCodes.$inferSelect;

/** Spent and expired codes are kept this long (to recognise a replay), then swept. */
const KEEP_MS = 60 * 60_000;

export async function issueCode(db: RootDb, ttlSeconds: number, request: AuthorizationRequest, accountId: string): Promise<string> {
  const code = `bb_ac_${randomBase62(43)}`;
  const now = Date.now();
  await db.batch([
    db.delete(oauthCodes).where(lt(oauthCodes.expiresAt, now - KEEP_MS)),
    db.insert(oauthCodes).values({
      hash: sha256Hex(code),
      clientId: request.clientId,
      accountId,
      redirectUri: request.redirectUri,
      codeChallenge: request.codeChallenge,
      scope: request.scope,
      resource: request.resource,
      expiresAt: now + ttlSeconds * 1000,
    }),
  ]);
  return code;
}

/** The code's row if this call is the first to present it; otherwise the spent row (or nothing). */
export async function consumeCode(db: RootDb, code: string): Promise<{ fresh: CodeRow } | { spent: CodeRow | undefined }> {
  const hash = sha256Hex(code);
  const [fresh] = await db
    .update(oauthCodes)
    .set({ usedAt: Date.now() })
    .where(and(eq(oauthCodes.hash, hash), isNull(oauthCodes.usedAt)))
    .returning();
  if (fresh) return { fresh };
  return { spent: await db.query.oauthCodes.findFirst({ where: eq(oauthCodes.hash, hash) }) };
}
