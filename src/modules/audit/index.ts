// GET /api/v1/audit: the audit log, newest first. Server admins read every event, anyone else their own.
// Not a brain feature, so no unversioned twin.
import { Elysia, t } from "elysia";
import type { AppContext } from "../../context";
import { invalid } from "../../lib/errors";
import { authGuard } from "../auth/guard";
import { AUDIT_ACTIONS } from "./actions";
import { listAudit } from "./service";

const auditQuery = t.Object({
  action: t.Optional(t.String({ maxLength: 100, description: `One of: ${AUDIT_ACTIONS.join(", ")}` })),
  actorId: t.Optional(t.String({ maxLength: 100 })),
  teamId: t.Optional(t.String({ maxLength: 100, description: "Only this team's events" })),
  since: t.Optional(t.String({ maxLength: 40, description: "ISO 8601 time: events at or after it" })),
  until: t.Optional(t.String({ maxLength: 40, description: "ISO 8601 time: events at or before it" })),
  cursor: t.Optional(t.String({ maxLength: 20, description: "`nextCursor` of the previous page" })),
  limit: t.Optional(t.String({ maxLength: 4, description: "1–200, default 50" })),
});

function timeOf(field: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const ms = Date.parse(raw);
  if (!Number.isFinite(ms)) throw invalid(field, `${field} must be an ISO 8601 time, e.g. 2026-01-31T00:00:00Z`);
  return ms;
}

export const auditRoutes = (ctx: AppContext) =>
  new Elysia({ detail: { tags: ["Audit"] } })
    .use(authGuard(ctx))
    // Events newest first: {events:[{id,at,action,actor,teamId,target,ip,details}], nextCursor}.
    .get(
      "/api/v1/audit",
      async ({ principal, query }) => {
        if (query.action !== undefined && !(AUDIT_ACTIONS as readonly string[]).includes(query.action)) throw invalid("action", `action must be one of ${AUDIT_ACTIONS.join(", ")}`);
        const limit = query.limit === undefined ? 50 : Number(query.limit);
        if (!Number.isInteger(limit) || limit < 1 || limit > 200) throw invalid("limit", "limit must be a whole number from 1 to 200");
        const cursor = query.cursor === undefined ? undefined : Number(query.cursor);
        if (cursor !== undefined && (!Number.isInteger(cursor) || cursor < 1)) throw invalid("cursor", "cursor must be the nextCursor of a previous page");
        return listAudit(ctx.db, principal.account, {
          action: query.action,
          actorId: query.actorId,
          teamId: query.teamId,
          since: timeOf("since", query.since),
          until: timeOf("until", query.until),
          cursor,
          limit,
        });
      },
      { query: auditQuery },
    );
