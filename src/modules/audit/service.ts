// Reading the audit log: newest first, filtered, paged by a cursor (the last event's id). A server admin
// sees every event; a team's admins see the team's events (members, invitations, shares it is named on);
// anyone else sees their own (what they did, and what was done to their account).
import { and, desc, eq, gte, inArray, lt, lte, or, type SQL } from "drizzle-orm";
import type { Db } from "../../db/client";
import { auditEvents, teamMembers } from "../../db/schema";
import type { Account } from "../accounts/service";

export interface AuditQuery {
  action?: string;
  actorId?: string;
  teamId?: string;
  since?: number;
  until?: number;
  cursor?: number;
  limit: number;
}

export async function listAudit(db: Db, viewer: Account, query: AuditQuery) {
  const where: SQL[] = [];
  if (!viewer.isAdmin) where.push(visibleTo(db, viewer));
  if (query.teamId) where.push(eq(auditEvents.teamId, query.teamId));
  if (query.action) where.push(eq(auditEvents.action, query.action));
  if (query.actorId) where.push(eq(auditEvents.actorId, query.actorId));
  if (query.since !== undefined) where.push(gte(auditEvents.at, query.since));
  if (query.until !== undefined) where.push(lte(auditEvents.at, query.until));
  if (query.cursor !== undefined) where.push(lt(auditEvents.id, query.cursor));
  const rows = await db
    .select()
    .from(auditEvents)
    .where(where.length ? and(...where) : undefined)
    .orderBy(desc(auditEvents.id))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  return {
    events: page.map((r) => ({
      id: String(r.id),
      at: new Date(r.at).toISOString(),
      action: r.action,
      actor: r.actorId === null && r.actorLabel === null ? null : { id: r.actorId, label: r.actorLabel },
      teamId: r.teamId,
      target: r.targetKind === null ? null : { kind: r.targetKind, id: r.targetId },
      ip: r.ip,
      details: r.details ?? {},
    })),
    nextCursor: rows.length > query.limit ? String(page[page.length - 1]!.id) : null,
  };
}

/** Deletes events older than the retention; answers how many went. */
export async function pruneAudit(db: Db, retentionDays: number, now = Date.now()): Promise<number> {
  const rows = await db.delete(auditEvents).where(lt(auditEvents.at, now - retentionDays * 86_400_000)).returning({ id: auditEvents.id });
  return rows.length;
}

/** The events a person who is not a server admin may read: their own, and those of the teams they admin. */
function visibleTo(db: Db, viewer: Account): SQL {
  const adminOf = db
    .select({ teamId: teamMembers.teamId })
    .from(teamMembers)
    .where(and(eq(teamMembers.accountId, viewer.id), eq(teamMembers.role, "admin")));
  return or(
    eq(auditEvents.actorId, viewer.id),
    and(eq(auditEvents.targetKind, "account"), eq(auditEvents.targetId, viewer.id)),
    inArray(auditEvents.teamId, adminOf),
  )!;
}
