// Appends one event to the audit log. An audit write that fails (a full disk) is logged, never the reason
// a sign-in or a revocation fails: the action itself already happened or is refused on its own terms.
import type { Db } from "../../db/client";
import { auditEvents } from "../../db/schema";
import type { Logger } from "../../lib/log";
import type { AuditAction } from "./actions";

export interface AuditEvent {
  action: AuditAction;
  actorId?: string | null;
  actorLabel?: string | null;
  teamId?: string | null;
  target?: { kind: string; id: string };
  ip?: string | null;
  details?: Record<string, unknown>;
}

export async function recordAudit(db: Db, event: AuditEvent, log?: Logger): Promise<void> {
  try {
    await db.insert(auditEvents).values({
      at: Date.now(),
      action: event.action,
      actorId: event.actorId ?? null,
      actorLabel: event.actorLabel ?? null,
      teamId: event.teamId ?? null,
      targetKind: event.target?.kind ?? null,
      targetId: event.target?.id ?? null,
      ip: event.ip ?? null,
      details: event.details ?? null,
    });
  } catch (error) {
    log?.warn("audit event not written", { action: event.action, error: String(error) });
  }
}
