// Invitations (issue 56): by email, to a team (at a team role) and/or a brain (at a brain role). The link
// carries a single-use token, shown once to the inviter and kept only as its SHA-256. It is accepted by a
// signed-in person whose email is the invited one; reused, revoked, expired or another email → clear errors.
import { and, desc, eq, gt, isNull, sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { brainShares, invitations } from "../../db/schema";
import { AppError, invalid, notFound } from "../../lib/errors";
import type { Logger } from "../../lib/log";
import { newId, randomBase62, sha256Hex } from "../../lib/secrets";
import type { Account } from "../accounts/service";
import { recordAudit } from "../audit/record";
import { brainWithRole, higherRole, type BrainRole } from "../brains/access";
import { actor, adminOf, joinTeam, type TeamRole } from "../teams/service";

export const INVITATION_PREFIX = "bb_inv_";

export type Invitation = typeof invitations.$inferSelect;

export interface InvitationInput {
  email: string;
  teamId?: string;
  teamRole?: TeamRole;
  brainId?: string;
  brainRole?: BrainRole;
}

export const invitationView = (i: Invitation) => ({
  id: i.id,
  email: i.email,
  team: i.teamId ? { id: i.teamId, role: i.teamRole! } : null,
  brain: i.brainId ? { id: i.brainId, role: i.brainRole! } : null,
  status: i.acceptedAt ? "accepted" : i.revokedAt ? "revoked" : i.expiresAt <= Date.now() ? "expired" : "pending",
  createdAt: new Date(i.createdAt).toISOString(),
  expiresAt: new Date(i.expiresAt).toISOString(),
});

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A new invitation and its token (the only time it is seen). Team: admins only; brain: owners only. */
export async function createInvitation(db: Db, inviter: Account, input: InvitationInput, ttlMs: number, log?: Logger) {
  const email = input.email.trim().toLowerCase();
  if (!EMAIL.test(email)) throw invalid("email", "email must be an email address");
  if (!input.teamId && !input.brainId) throw invalid("teamId", "Invite to a team (teamId), a brain (brainId) or both");
  if (input.teamId) await adminOf(db, inviter.id, input.teamId);
  if (input.brainId) await brainWithRole(db, inviter.id, input.brainId, "owner");
  const token = INVITATION_PREFIX + randomBase62(43);
  const [row] = await db
    .insert(invitations)
    .values({
      id: newId("inv"),
      email,
      tokenHash: sha256Hex(token),
      teamId: input.teamId ?? null,
      teamRole: input.teamId ? (input.teamRole ?? "member") : null,
      brainId: input.brainId ?? null,
      brainRole: input.brainId ? (input.brainRole ?? "viewer") : null,
      invitedBy: inviter.id,
      expiresAt: Date.now() + ttlMs,
    })
    .returning();
  await recordAudit(
    db,
    { action: "invitation.created", ...actor(inviter), teamId: auditTeamOf(row!, inviter), target: { kind: "invitation", id: row!.id }, details: { email, team: input.teamId ?? null, brain: input.brainId ?? null } },
    log,
  );
  return { invitation: row!, token };
}

/** Events of a team invitation go to that team's admins; of a brain-only one, to the inviter's own team. */
const auditTeamOf = (i: Invitation, inviter: { id: string }) => i.teamId ?? `team_${i.invitedBy ?? inviter.id}`;

/** Invitations the caller sent, and those of teams the caller administers, newest first. */
export async function listInvitations(db: Db, accountId: string) {
  const rows = await db.query.invitations.findMany({
    where: sql`${invitations.invitedBy} = ${accountId} or ${invitations.teamId} in (select "team_id" from "team_members" where "account_id" = ${accountId} and "role" = 'admin')`,
    orderBy: desc(invitations.createdAt),
  });
  return rows.map(invitationView);
}

/** The inviter or an admin of the invitation's team revokes it; the link then answers 409. */
export async function revokeInvitation(db: Db, caller: Account, id: string, log?: Logger) {
  const row = await db.query.invitations.findFirst({ where: eq(invitations.id, id) });
  const mayRevoke = row && (row.invitedBy === caller.id || (row.teamId && (await adminOf(db, caller.id, row.teamId).then(() => true, () => false))));
  if (!row || !mayRevoke) throw notFound("Invitation");
  if (row.acceptedAt) throw new AppError("conflict", "This invitation was already accepted: change the person's role instead", { reason: "accepted" });
  await db.update(invitations).set({ revokedAt: Date.now() }).where(and(eq(invitations.id, id), isNull(invitations.revokedAt)));
  await recordAudit(db, { action: "invitation.revoked", ...actor(caller), teamId: auditTeamOf(row, caller), target: { kind: "invitation", id } }, log);
}

export function unusable(row: Invitation, now: number): AppError | null {
  if (row.acceptedAt) return new AppError("conflict", "This invitation was already used: each link works once", { reason: "accepted" });
  if (row.revokedAt) return new AppError("conflict", "This invitation was withdrawn: ask for a new one", { reason: "revoked" });
  if (row.expiresAt <= now) return new AppError("conflict", "This invitation has expired: ask for a new one", { reason: "expired", expiresAt: new Date(row.expiresAt).toISOString() });
  return null;
}

/** The invitation a link's token names; an unknown or malformed token is a 404 naming the field. */
export async function invitationByToken(db: Db, token: string): Promise<Invitation> {
  const row = token.startsWith(INVITATION_PREFIX) ? await db.query.invitations.findFirst({ where: eq(invitations.tokenHash, sha256Hex(token)) }) : undefined;
  if (!row) throw new AppError("not_found", "Invitation not found: check the link", { field: "token" });
  return row;
}

/** Accepts with the signed-in person's account: the token's invitation, for this email, once. */
export async function acceptInvitation(db: Db, person: Account, token: string, log?: Logger) {
  const row = await invitationByToken(db, token);
  const now = Date.now();
  const refusal = unusable(row, now);
  if (refusal) throw refusal;
  if (!person.email || person.email !== row.email)
    throw new AppError("forbidden", "This invitation is for another email address: sign in as the invited person", { reason: "email_mismatch" });
  if (!(await claim(db, row, person, now, log))) throw unusable({ ...row, acceptedAt: row.acceptedAt ?? now }, now)!;
  return invitationView({ ...row, acceptedAt: now, acceptedBy: person.id });
}

/**
 * Every invitation still open for the person's email, accepted for them: a person single sign-on has just
 * made, with an email the provider verified, joins what they were invited to without a link. Answers how many.
 */
export async function acceptPendingInvitations(db: Db, person: Account, log?: Logger): Promise<number> {
  if (!person.email) return 0;
  const now = Date.now();
  const open = await db.query.invitations.findMany({
    where: and(eq(invitations.email, person.email), isNull(invitations.acceptedAt), isNull(invitations.revokedAt), gt(invitations.expiresAt, now)),
  });
  let accepted = 0;
  for (const row of open) if (await claim(db, row, person, now, log)) accepted++;
  return accepted;
}

/** Claims the invitation by one conditional update (two accepts at once let exactly one through), then grants it. */
async function claim(db: Db, row: Invitation, person: Account, now: number, log?: Logger): Promise<boolean> {
  const claimed = await db
    .update(invitations)
    .set({ acceptedAt: now, acceptedBy: person.id })
    .where(and(eq(invitations.id, row.id), isNull(invitations.acceptedAt), isNull(invitations.revokedAt), gt(invitations.expiresAt, now)))
    .returning({ id: invitations.id });
  if (claimed.length === 0) return false;
  if (row.teamId) await joinTeam(db, row.teamId, person.id, row.teamRole!);
  if (row.brainId) await grantBrain(db, row.brainId, person.id, row.brainRole!);
  await recordAudit(db, { action: "invitation.accepted", ...actor(person), teamId: auditTeamOf(row, person), target: { kind: "invitation", id: row.id } }, log);
  return true;
}

/** Gives the person the brain role, or keeps a higher one they already have (an invitation never demotes). */
async function grantBrain(db: Db, brainId: string, accountId: string, role: BrainRole) {
  const existing = await db.query.brainShares.findFirst({ where: and(eq(brainShares.brainId, brainId), eq(brainShares.accountId, accountId)) });
  if (!existing) {
    await db.insert(brainShares).values({ brainId, accountId, role });
    return;
  }
  const next = higherRole(existing.role, role)!;
  if (next !== existing.role)
    await db.update(brainShares).set({ role: next }).where(and(eq(brainShares.brainId, brainId), eq(brainShares.accountId, accountId)));
}
