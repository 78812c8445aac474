// Shares (issue 56): a brain or brain set is shared with a person or a whole team at a role (viewer,
// editor, owner). Only an owner lists and changes its shares; anyone may drop their own share (leave).
// There is always an owner: removing or demoting the last owner share is 409.
import { sql, type SQL } from "drizzle-orm";
import type { Db } from "../../db/client";
import { isUniqueViolation } from "../../lib/db-errors";
import { AppError, notFound } from "../../lib/errors";
import type { Logger } from "../../lib/log";
import type { Account } from "../accounts/service";
import { recordAudit } from "../audit/record";
import { brainWithRole, type BrainRole } from "../brains/access";
import { brainSetWithRole } from "../brain-sets/service";
import { actor } from "../teams/service";

export type Resource = { kind: "brain" | "brain_set"; id: string };
export type Grantee = { kind: "account" | "team"; id: string };

export interface ShareView {
  grantee: { kind: "account" | "team"; id: string; name: string; email: string | null };
  role: BrainRole;
  createdAt: string;
}

const TABLE = {
  brain: { table: sql.raw(`"brain_shares"`), key: sql.raw(`"brain_id"`), parent: sql.raw(`"brains"`) },
  brain_set: { table: sql.raw(`"brain_set_shares"`), key: sql.raw(`"set_id"`), parent: sql.raw(`"brain_sets"`) },
};

const granteeColumn = (g: Grantee) => sql.raw(g.kind === "account" ? `"account_id"` : `"team_id"`);

/** The resource when the caller owns it (404 without a role, 403 below owner). */
async function requireOwner(db: Db, accountId: string, r: Resource) {
  if (r.kind === "brain") await brainWithRole(db, accountId, r.id, "owner");
  else await brainSetWithRole(db as never, accountId, r.id, "owner");
}

export async function listShares(db: Db, accountId: string, r: Resource): Promise<ShareView[]> {
  await requireOwner(db, accountId, r);
  return sharesOf(db, r);
}

async function sharesOf(db: Db, r: Resource): Promise<ShareView[]> {
  const { table, key } = TABLE[r.kind];
  const rows = await db.all<{ account_id: string | null; team_id: string | null; role: BrainRole; created_at: number; name: string; email: string | null }>(sql`
    select s."account_id", s."team_id", s."role", s."created_at", coalesce(a."name", t."name") as "name", a."email"
    from ${table} s left join "accounts" a on a."id" = s."account_id" left join "teams" t on t."id" = s."team_id"
    where s.${key} = ${r.id} order by s."created_at", s."rowid"`);
  return rows.map((row) => ({
    grantee: { kind: row.account_id ? "account" : "team", id: (row.account_id ?? row.team_id)!, name: row.name, email: row.email ?? null },
    role: row.role,
    createdAt: new Date(Number(row.created_at)).toISOString(),
  }));
}

async function granteeExists(db: Db, g: Grantee): Promise<boolean> {
  const rows = await db.all(g.kind === "account" ? sql`select 1 from "accounts" where "id" = ${g.id}` : sql`select 1 from "teams" where "id" = ${g.id}`);
  return rows.length > 0;
}

/** The team whose admins read this share's audit events: the grantee team, else the resource maker's own team. */
async function auditTeam(db: Db, r: Resource, g: Grantee): Promise<string | null> {
  if (g.kind === "team") return g.id;
  const { parent } = TABLE[r.kind];
  const [row] = await db.all<{ account_id: string }>(sql`select "account_id" from ${parent} where "id" = ${r.id}`);
  return row ? `team_${row.account_id}` : null;
}

/** The statement's change leaves an owner: the row is not an owner share, or another owner share exists. */
const keepsAnOwner = (r: Resource): SQL => {
  const { table, key } = TABLE[r.kind];
  return sql`("role" <> 'owner' or (select count(*) from ${table} o where o.${key} = ${r.id} and o."role" = 'owner') > 1)`;
};
const lastOwner = (r: Resource) =>
  new AppError("conflict", `The ${r.kind === "brain" ? "brain" : "brain set"}'s last owner cannot leave or step down: make someone else owner first`);

/** Shares the resource with a person or team at a role (replacing their role); owner only. */
export async function putShare(db: Db, caller: Account, r: Resource, g: Grantee, role: BrainRole, log?: Logger): Promise<ShareView> {
  await requireOwner(db, caller.id, r);
  if (!(await granteeExists(db, g))) throw new AppError("not_found", `${g.kind === "account" ? "Account" : "Team"} not found`, { field: "grantee" });
  const { table, key } = TABLE[r.kind];
  const column = granteeColumn(g);
  const [current] = await db.all<{ role: BrainRole }>(sql`select "role" from ${table} where ${key} = ${r.id} and ${column} = ${g.id}`);
  if (current) {
    const changed = await db.all(sql`update ${table} set "role" = ${role}
      where ${key} = ${r.id} and ${column} = ${g.id} and (${role} = 'owner' or ${keepsAnOwner(r)}) returning 1`);
    if (changed.length === 0) throw lastOwner(r);
  } else {
    try {
      await db.run(sql`insert into ${table} (${key}, ${column}, "role") values (${r.id}, ${g.id}, ${role})`);
    } catch (e) {
      if (isUniqueViolation(e)) throw new AppError("conflict", "This share was changed at the same moment: try again");
      throw e;
    }
  }
  await recordAudit(
    db,
    { action: "share.changed", ...actor(caller), teamId: await auditTeam(db, r, g), target: { kind: r.kind, id: r.id }, details: { grantee: g, from: current?.role ?? null, to: role } },
    log,
  );
  // Read without the owner check: an owner who just stepped down to editor still gets the answer.
  return (await sharesOf(db, r)).find((s) => s.grantee.kind === g.kind && s.grantee.id === g.id)!;
}

/** Removes a share: an owner removes any, anyone their own (leaving); the last owner → 409. */
export async function removeShare(db: Db, caller: Account, r: Resource, g: Grantee, log?: Logger): Promise<void> {
  const own = g.kind === "account" && g.id === caller.id;
  if (own) {
    if (r.kind === "brain") await brainWithRole(db, caller.id, r.id, "viewer");
    else await brainSetWithRole(db as never, caller.id, r.id, "viewer");
  } else await requireOwner(db, caller.id, r);
  const { table, key } = TABLE[r.kind];
  const column = granteeColumn(g);
  const [current] = await db.all<{ role: BrainRole }>(sql`select "role" from ${table} where ${key} = ${r.id} and ${column} = ${g.id}`);
  if (!current) throw notFound("Share");
  const removed = await db.all(sql`delete from ${table} where ${key} = ${r.id} and ${column} = ${g.id} and ${keepsAnOwner(r)} returning 1`);
  if (removed.length === 0) throw lastOwner(r);
  await recordAudit(
    db,
    { action: "share.removed", ...actor(caller), teamId: await auditTeam(db, r, g), target: { kind: r.kind, id: r.id }, details: { grantee: g, role: current.role } },
    log,
  );
}

/** Ids of brains and sets the caller reaches through a share but did not make (for "Shared with me"). */
export async function sharedWithMeIds(db: Db, accountId: string): Promise<{ brains: Set<string>; brainSets: Set<string> }> {
  const via = (table: SQL, key: SQL) => sql`select s.${key} as "id" from ${table} s
    where s."account_id" = ${accountId} or s."team_id" in (select "team_id" from "team_members" where "account_id" = ${accountId})`;
  const brains = await db.all<{ id: string }>(sql`select "id" from "brains" where "account_id" <> ${accountId} and "id" in (${via(TABLE.brain.table, TABLE.brain.key)})`);
  const sets = await db.all<{ id: string }>(
    sql`select "id" from "brain_sets" where "account_id" <> ${accountId} and "id" in (${via(TABLE.brain_set.table, TABLE.brain_set.key)})`,
  );
  return { brains: new Set(brains.map((b) => b.id)), brainSets: new Set(sets.map((s) => s.id)) };
}
