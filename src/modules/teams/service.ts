// Teams (issue 56): people with a role, `admin` (manages members, the team's plan, its key policy) or
// `member`. Every account has a team of its own (accounts/service.ts, migration 0026); more are made on
// purpose. A team is invisible to non-members: every route answers 404 for them, as for a missing team.
import { and, asc, count, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { accounts, teamMembers, teams } from "../../db/schema";
import { AppError, invalid, notFound } from "../../lib/errors";
import { newId } from "../../lib/secrets";
import type { Account } from "../accounts/service";
import { recordAudit } from "../audit/record";
import type { Logger } from "../../lib/log";

export type TeamRole = "admin" | "member";
export type Team = typeof teams.$inferSelect;

export interface TeamView {
  id: string;
  name: string;
  /** `team` when the members share the Team plan's one quota; null: each member's own plan applies. */
  plan: string | null;
  /** The account's own team, made with it. */
  personal: boolean;
  /** The caller's role in the team. */
  role: TeamRole;
  /** What the members' new API keys must be (key-policy.ts). */
  keyPolicy: { readOnly: boolean; maxDays: number | null };
  createdAt: string;
}

export interface MemberView {
  accountId: string;
  name: string;
  email: string | null;
  role: TeamRole;
  joinedAt: string;
}

const teamView = (team: Team, role: TeamRole): TeamView => ({
  id: team.id,
  name: team.name,
  plan: team.planId,
  personal: team.personalOf !== null,
  role,
  keyPolicy: { readOnly: team.keyReadOnly, maxDays: team.keyMaxDays },
  createdAt: new Date(team.createdAt).toISOString(),
});

/** Who acted, for the audit log. */
export const actor = (account: Account) => ({ actorId: account.id, actorLabel: account.email ?? account.name });

/** The team and the caller's role in it; 404 unless the caller is a member. */
export async function membership(db: Db, accountId: string, teamId: string): Promise<{ team: Team; role: TeamRole }> {
  const [row] = await db
    .select({ team: teams, role: teamMembers.role })
    .from(teams)
    .innerJoin(teamMembers, and(eq(teamMembers.teamId, teams.id), eq(teamMembers.accountId, accountId)))
    .where(eq(teams.id, teamId));
  if (!row) throw notFound("Team");
  return row;
}

/** The team when the caller is one of its admins; a member gets 403, anyone else 404. */
export async function adminOf(db: Db, accountId: string, teamId: string): Promise<Team> {
  const { team, role } = await membership(db, accountId, teamId);
  if (role !== "admin") throw new AppError("forbidden", "Only an admin of the team can do this", { role, required: "admin" });
  return team;
}

/** A new team with its maker as admin. On the Team plan when the maker's account is. */
export async function createTeam(db: Db, account: Account, name: string, log?: Logger): Promise<TeamView> {
  const id = newId("team");
  await db.insert(teams).values({ id, name, planId: account.planId === "team" ? "team" : null });
  await db.insert(teamMembers).values({ teamId: id, accountId: account.id, role: "admin" });
  await recordAudit(db, { action: "team.created", ...actor(account), teamId: id, target: { kind: "team", id }, details: { name } }, log);
  return getTeam(db, account.id, id);
}

export async function getTeam(db: Db, accountId: string, teamId: string): Promise<TeamView> {
  const { team, role } = await membership(db, accountId, teamId);
  return teamView(team, role);
}

export async function listTeams(db: Db, accountId: string): Promise<TeamView[]> {
  const rows = await db
    .select({ team: teams, role: teamMembers.role })
    .from(teams)
    .innerJoin(teamMembers, eq(teamMembers.teamId, teams.id))
    .where(eq(teamMembers.accountId, accountId))
    .orderBy(asc(teams.createdAt), asc(teams.id));
  return rows.map((r) => teamView(r.team, r.role));
}

export async function renameTeam(db: Db, account: Account, teamId: string, name: string): Promise<TeamView> {
  await adminOf(db, account.id, teamId);
  await db.update(teams).set({ name }).where(eq(teams.id, teamId));
  return getTeam(db, account.id, teamId);
}

/** A team admin sets what the members' new API keys must be: read-only, expiring within N days (null: no rule). */
export async function setKeyPolicy(db: Db, account: Account, teamId: string, policy: { readOnly?: boolean; maxDays?: number | null }, log?: Logger): Promise<TeamView> {
  await adminOf(db, account.id, teamId);
  await db
    .update(teams)
    .set({ ...(policy.readOnly !== undefined && { keyReadOnly: policy.readOnly }), ...(policy.maxDays !== undefined && { keyMaxDays: policy.maxDays }) })
    .where(eq(teams.id, teamId));
  await recordAudit(db, { action: "team.key_policy_changed", ...actor(account), teamId, target: { kind: "team", id: teamId }, details: policy }, log);
  return getTeam(db, account.id, teamId);
}

/** The installation's admin sets a team's plan (a team's own admin cannot buy itself the Team plan). */
export async function setTeamPlan(db: Db, account: Account, teamId: string, plan: "team" | null): Promise<TeamView> {
  if (!account.isAdmin) throw new AppError("forbidden", "Only the installation's admin can change a team's plan");
  const [row] = await db.update(teams).set({ planId: plan }).where(eq(teams.id, teamId)).returning({ id: teams.id });
  if (!row) throw notFound("Team");
  const { role } = await membership(db, account.id, teamId).catch(() => ({ role: "member" as TeamRole }));
  const team = await db.query.teams.findFirst({ where: eq(teams.id, teamId) });
  return teamView(team!, role);
}

export async function listMembers(db: Db, accountId: string, teamId: string): Promise<MemberView[]> {
  await membership(db, accountId, teamId);
  const rows = await db
    .select({ accountId: accounts.id, name: accounts.name, email: accounts.email, role: teamMembers.role, joinedAt: teamMembers.createdAt })
    .from(teamMembers)
    .innerJoin(accounts, eq(accounts.id, teamMembers.accountId))
    .where(eq(teamMembers.teamId, teamId))
    .orderBy(asc(teamMembers.createdAt), asc(accounts.id));
  return rows.map((r) => ({ ...r, joinedAt: new Date(r.joinedAt).toISOString() }));
}

async function memberView(db: Db, teamId: string, accountId: string): Promise<MemberView> {
  const rows = await listMembers(db, accountId, teamId);
  return rows.find((m) => m.accountId === accountId)!;
}

/** Adds a person (by account id or email) at a role; already a member → 409. */
export async function addMember(
  db: Db,
  admin: Account,
  teamId: string,
  who: { accountId?: string; email?: string },
  role: TeamRole,
  log?: Logger,
): Promise<MemberView> {
  await adminOf(db, admin.id, teamId);
  if (!who.accountId && !who.email) throw invalid("accountId", "Name the person by accountId or email");
  const person = who.accountId
    ? await db.query.accounts.findFirst({ where: eq(accounts.id, who.accountId) })
    : who.email
      ? await db.query.accounts.findFirst({ where: eq(accounts.email, who.email.trim().toLowerCase()) })
      : undefined;
  if (!person) throw new AppError("not_found", "No such person: invite them by email instead", { field: who.accountId ? "accountId" : "email" });
  const existing = await db.query.teamMembers.findFirst({ where: and(eq(teamMembers.teamId, teamId), eq(teamMembers.accountId, person.id)) });
  if (existing) throw new AppError("conflict", "This person is already a member of the team", { role: existing.role });
  await joinTeam(db, teamId, person.id, role);
  await recordAudit(db, { action: "team.member_added", ...actor(admin), teamId, target: { kind: "account", id: person.id }, details: { role } }, log);
  return memberView(db, teamId, person.id);
}

/** Joins (or, for an invitation to a higher role, promotes) a person; never demotes. */
export async function joinTeam(db: Db, teamId: string, accountId: string, role: TeamRole): Promise<void> {
  await db
    .insert(teamMembers)
    .values({ teamId, accountId, role })
    .onConflictDoUpdate({ target: [teamMembers.teamId, teamMembers.accountId], set: { role: role === "admin" ? "admin" : teamMembers.role } });
}

async function adminCount(db: Db, teamId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(teamMembers).where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.role, "admin")));
  return row?.n ?? 0;
}

async function targetMember(db: Db, teamId: string, accountId: string) {
  const row = await db.query.teamMembers.findFirst({ where: and(eq(teamMembers.teamId, teamId), eq(teamMembers.accountId, accountId)) });
  if (!row) throw notFound("Member");
  return row;
}

/** The row's change leaves the team an admin: it is not an admin, stays one, or another admin exists. */
const keepsAnAdmin = (teamId: string, nextRole: TeamRole) =>
  nextRole === "admin"
    ? sql`1`
    : sql`(${teamMembers.role} <> 'admin' or (select count(*) from "team_members" t where t."team_id" = ${teamId} and t."role" = 'admin') > 1)`;

const lastAdmin = () => new AppError("conflict", "The team's last admin cannot step down or leave: make another member admin first");

export async function changeRole(db: Db, admin: Account, teamId: string, accountId: string, role: TeamRole, log?: Logger): Promise<MemberView> {
  await adminOf(db, admin.id, teamId);
  const current = await targetMember(db, teamId, accountId);
  if (current.role === "admin" && role !== "admin" && (await adminCount(db, teamId)) <= 1) throw lastAdmin();
  // The count is checked again in the statement itself: two admins demoting each other at once leave one.
  const changed = await db
    .update(teamMembers)
    .set({ role })
    .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.accountId, accountId), keepsAnAdmin(teamId, role)))
    .returning({ id: teamMembers.accountId });
  if (changed.length === 0) throw lastAdmin();
  await recordAudit(
    db,
    { action: "team.member_role_changed", ...actor(admin), teamId, target: { kind: "account", id: accountId }, details: { from: current.role, to: role } },
    log,
  );
  return memberView(db, teamId, accountId);
}

/** An admin removes anyone; a member may remove only themselves (leave). The last admin → 409. */
export async function removeMember(db: Db, caller: Account, teamId: string, accountId: string, log?: Logger): Promise<void> {
  const { role } = await membership(db, caller.id, teamId);
  if (role !== "admin" && accountId !== caller.id) throw new AppError("forbidden", "Only an admin of the team can remove others", { role, required: "admin" });
  const current = await targetMember(db, teamId, accountId);
  if (current.role === "admin" && (await adminCount(db, teamId)) <= 1) throw lastAdmin();
  const removed = await db
    .delete(teamMembers)
    .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.accountId, accountId), keepsAnAdmin(teamId, "member")))
    .returning({ id: teamMembers.accountId });
  if (removed.length === 0) throw lastAdmin();
  await recordAudit(db, { action: "team.member_removed", ...actor(caller), teamId, target: { kind: "account", id: accountId }, details: { role: current.role } }, log);
}
