// Who may do what with a brain (issue 56): one query gives the brain and the caller's role, from the
// caller's own share, the shares of the caller's teams, or (read-only) a public free brain. Everything
// that reads or changes a brain on any surface (v1, unversioned, MCP, OAuth tokens, brain sets, asks,
// uploads, pages, graph, payments) goes through here, so the rules are the same everywhere:
// no role → 404 exactly as a brain that does not exist; a role too low → 403 `forbidden`.
import { eq, getTableColumns, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { prepared } from "../../db/prepared";
import { cachedRead } from "../../db/read-cache";
import { brains } from "../../db/schema";
import { AppError, notFound } from "../../lib/errors";

export type Brain = typeof brains.$inferSelect;
export type BrainRole = "viewer" | "editor" | "owner";

const RANKS: Record<BrainRole, number> = { viewer: 1, editor: 2, owner: 3 };
const ROLE_OF_RANK: Array<BrainRole | null> = [null, "viewer", "editor", "owner"];

/** The highest of two roles (null: none). */
export const higherRole = (a: BrainRole | null, b: BrainRole | null): BrainRole | null =>
  a === null ? b : b === null ? a : RANKS[a] >= RANKS[b] ? a : b;
export const roleAtLeast = (role: BrainRole | null, needed: BrainRole) => role !== null && RANKS[role] >= RANKS[needed];

/**
 * The caller's best share rank on the row's brain (0: none), for a `table` of shares keyed by `key`.
 * Written out in full: drizzle renders bare column names inside sql``.
 */
export const shareRank = (table: "brain_shares" | "brain_set_shares", key: string, id: unknown, accountId: unknown) =>
  sql<number>`coalesce((select max(case s."role" when 'owner' then 3 when 'editor' then 2 else 1 end) from "${sql.raw(table)}" s
    where s."${sql.raw(key)}" = ${id} and (s."account_id" = ${accountId}
      or s."team_id" in (select m."team_id" from "team_members" m where m."account_id" = ${accountId}))), 0)`;

const isPaid = sql<number>`exists (select 1 from "paid_brains" where "paid_brains"."brain_id" = "brains"."id")`;

/** A role from a share rank, or viewer on a public brain that is not paid (x402 brains are only for pay). */
export function roleFrom(rank: number, brain: Pick<Brain, "visibility">, paid: boolean): BrainRole | null {
  const shared = ROLE_OF_RANK[Math.min(Math.max(Number(rank), 0), 3)] ?? null;
  if (shared) return shared;
  return brain.visibility === "public" && !paid ? "viewer" : null;
}

export interface BrainAccess {
  brain: Brain;
  role: BrainRole;
}

const accessQuery = (db: Db) =>
  prepared(db, "brains.access", (d) => {
    const accountId = sql.placeholder("accountId");
    return d
      .select({ ...getTableColumns(brains), rank: shareRank("brain_shares", "brain_id", sql`"brains"."id"`, accountId), paid: isPaid })
      .from(brains)
      .where(eq(brains.id, sql.placeholder("brainId") as unknown as string))
      .limit(1)
      .prepare();
  });

/**
 * The brain and the caller's role on it, or 404. On the path of every ask and context call: kept while
 * the database is unchanged (db/read-cache.ts), so a changed share applies to the next request.
 */
export async function brainAccess(db: Db, accountId: string, brainId: string): Promise<BrainAccess> {
  const access = await cachedRead(db, `brains.access.${accountId}.${brainId}`, async () => {
    const [row] = await accessQuery(db).execute({ accountId, brainId });
    if (!row) return null;
    const { rank, paid, ...brain } = row;
    const role = roleFrom(rank, brain, Boolean(paid));
    return role ? Object.freeze({ brain: Object.freeze(brain), role }) : null;
  });
  if (!access) throw notFound("Brain");
  return access;
}

const ACTIONS: Record<BrainRole, string> = {
  viewer: "read it",
  editor: "change its sources and pages",
  owner: "share it, change its settings or delete it",
};

/** The brain when the caller's role is at least `needed`; 404 without any role, 403 `forbidden` below it. */
export async function brainWithRole(db: Db, accountId: string, brainId: string, needed: BrainRole): Promise<Brain> {
  const { brain, role } = await brainAccess(db, accountId, brainId);
  if (!roleAtLeast(role, needed)) {
    throw new AppError("forbidden", `Your role on this brain is ${role}: only an ${needed === "owner" ? "owner" : "editor or owner"} can ${ACTIONS[needed]}`, {
      role,
      required: needed,
    });
  }
  return brain;
}
