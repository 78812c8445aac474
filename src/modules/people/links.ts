// Single-use links that let a person set a password: the setup link printed at first start (the owner sets
// an email and a password) and reset links an admin (or `users reset-link`) makes. The token is random; only
// its SHA-256 is stored. A link works once and until its expiry; a newer link of the same kind replaces it.
import { and, eq, gt, isNull } from "drizzle-orm";
import type { AppContext } from "../../context";
import type { Db, RootDb } from "../../db/client";
import { passwordLinks } from "../../db/schema";
import { AppError } from "../../lib/errors";
import { randomBase62, safeEqual, sha256Hex } from "../../lib/secrets";
import { getAccount, type Account } from "../accounts/service";

export type LinkPurpose = "setup" | "reset";
const TOKEN = /^bb_pl_[0-9A-Za-z]{43}$/;
export const LINK_USED_OR_EXPIRED = "This link has expired or was already used: ask for a new one";

export interface NewLink {
  token: string;
  /** Path and query on this server: `/setup?token=…`. */
  path: string;
  expiresAt: number;
}

export async function createPasswordLink(db: RootDb, accountId: string, purpose: LinkPurpose, ttlMs: number, createdBy: string | null = null): Promise<NewLink> {
  const token = `bb_pl_${randomBase62(43)}`;
  const now = Date.now();
  await db.batch([
    db
      .update(passwordLinks)
      .set({ usedAt: now })
      .where(and(eq(passwordLinks.accountId, accountId), eq(passwordLinks.purpose, purpose), isNull(passwordLinks.usedAt))),
    db.insert(passwordLinks).values({ hash: sha256Hex(token), accountId, purpose, createdBy, expiresAt: now + ttlMs }),
  ]);
  return { token, path: `/setup?token=${token}`, expiresAt: now + ttlMs };
}

/** The live link of a token and its person (without using it), or 400 `invalid_link`. */
export async function inspectLink(db: Db, token: unknown): Promise<{ purpose: LinkPurpose; account: Account; expiresAt: number }> {
  if (typeof token !== "string" || !TOKEN.test(token)) throw new AppError("invalid_link", "This is not a setup or reset link", { field: "token" });
  const hash = sha256Hex(token);
  const row = await db.query.passwordLinks.findFirst({ where: eq(passwordLinks.hash, hash) });
  if (!row || !safeEqual(row.hash, hash) || row.usedAt !== null || row.expiresAt <= Date.now()) throw new AppError("invalid_link", LINK_USED_OR_EXPIRED, { field: "token" });
  return { purpose: row.purpose, account: await getAccount(db, row.accountId), expiresAt: row.expiresAt };
}

/** Uses a link: exactly one caller wins (the conditional update), a reused or expired one is 400 `invalid_link`. */
export async function consumeLink(db: Db, token: string): Promise<{ purpose: LinkPurpose; accountId: string }> {
  const now = Date.now();
  const [row] = await db
    .update(passwordLinks)
    .set({ usedAt: now })
    .where(and(eq(passwordLinks.hash, sha256Hex(token)), isNull(passwordLinks.usedAt), gt(passwordLinks.expiresAt, now)))
    .returning({ purpose: passwordLinks.purpose, accountId: passwordLinks.accountId });
  if (!row) throw new AppError("invalid_link", LINK_USED_OR_EXPIRED, { field: "token" });
  return row;
}

/** A reset link as the API and the CLI show it: the absolute URL and its expiry. */
export async function resetLink(ctx: Pick<AppContext, "db" | "config" | "publicUrl">, personId: string, createdBy: string | null) {
  const person = await ctx.db.query.accounts.findFirst({ where: (a, { eq }) => eq(a.id, personId) });
  if (!person) throw new AppError("not_found", "Person not found");
  const link = await createPasswordLink(ctx.db, personId, "reset", ctx.config.passwordLinkTtlHours * 3600_000, createdBy);
  return { url: `${ctx.publicUrl()}${link.path}`, expiresAt: new Date(link.expiresAt).toISOString() };
}
