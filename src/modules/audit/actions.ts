// Every action the audit log knows, in one list: a new kind of event is added here first.
export const AUDIT_ACTIONS = [
  "session.signed_in",
  "session.sign_in_failed",
  "session.signed_out",
  "session.signed_out_everywhere",
  "password.set",
  "password.reset_requested",
  "person.created",
  "person.deactivated",
  "person.reactivated",
  "person.role_changed",
  "team.created",
  "team.member_added",
  "team.member_role_changed",
  "team.member_removed",
  "invitation.created",
  "invitation.accepted",
  "invitation.revoked",
  "share.changed",
  "share.removed",
  "key.created",
  "key.revoked",
  "token.granted",
  "token.revoked",
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];
