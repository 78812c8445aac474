// Backups over HTTP, for the installation's admin only (403 for anyone else): start one, follow its
// progress, download its archive, list and delete them. The admin's own API key or session, never an OAuth
// access token (a backup holds every brain of every account).
import { Elysia, t } from "elysia";
import { join } from "node:path";
import type { AppContext, Principal } from "../../context";
import { clientAddressOf } from "../../http/client-address";
import { AppError } from "../../lib/errors";
import type { AuditAction } from "../audit/actions";
import { recordAudit } from "../audit/record";
import { authGuard } from "../auth/guard";
import { backupSourceOf } from "./cli";
import { createBackupService } from "./service";

const backupParams = t.Object({ backupId: t.String() });

const requireAdmin = (principal: Principal) => {
  if (!principal.account.isAdmin) throw new AppError("forbidden", "Only the installation's admin can make, download or delete backups");
};

export const backupRoutes = (ctx: AppContext) => {
  const audit = (action: AuditAction, id: string, principal: Principal | null, request?: Request, details?: Record<string, unknown>) =>
    recordAudit(
      ctx.db,
      { action, actorId: principal?.account.id ?? null, actorLabel: principal ? (principal.account.email ?? principal.account.name) : null, target: { kind: "backup", id }, ip: request ? clientAddressOf(request) : null, details },
      ctx.log,
    );
  const backups = createBackupService({
    dir: ctx.config.backupDir ?? join(ctx.config.dataDir, "backups"),
    keep: ctx.config.backupKeep,
    source: backupSourceOf(ctx.config, ctx.version),
    log: ctx.log,
  });
  return (
    new Elysia({ detail: { tags: ["Backups"] } })
      .use(authGuard(ctx))
      // Admin: start a backup (202); follow it at GET .../backups/{id}. 409 while another one runs.
      .post("/api/v1/admin/backups", async ({ principal, request, set }) => {
        requireAdmin(principal);
        const backup = backups.start(principal.account.id);
        void audit("backup.created", backup.id, principal, request);
        set.status = 202;
        return { backup };
      })
      // Admin: every backup, newest first.
      .get("/api/v1/admin/backups", async ({ principal }) => {
        requireAdmin(principal);
        return { backups: await backups.list() };
      })
      // Admin: one backup with its progress (status, phase, bytesDone of bytesTotal).
      .get(
        "/api/v1/admin/backups/:backupId",
        async ({ principal, params }) => {
          requireAdmin(principal);
          return { backup: await backups.get(params.backupId) };
        },
        { params: backupParams },
      )
      // Admin: the archive of a ready backup (a tar file; 409 while it runs).
      .get(
        "/api/v1/admin/backups/:backupId/download",
        async ({ principal, params, request }) => {
          requireAdmin(principal);
          const path = await backups.archive(params.backupId);
          void audit("backup.downloaded", params.backupId, principal, request);
          return new Response(Bun.file(path), {
            headers: { "content-type": "application/x-tar", "content-disposition": `attachment; filename="brainbox-${params.backupId}.tar"` },
          });
        },
        { params: backupParams, detail: { summary: "Download a ready backup (tar)", responses: { 200: { description: "The archive", content: { "application/x-tar": { schema: { type: "string", format: "binary" } } } } } } },
      )
      // Admin: delete a backup's archive and record (409 while it runs).
      .delete(
        "/api/v1/admin/backups/:backupId",
        async ({ principal, params, request, set }) => {
          requireAdmin(principal);
          await backups.remove(params.backupId);
          void audit("backup.deleted", params.backupId, principal, request);
          set.status = 204;
          return null;
        },
        { params: backupParams },
      )
  );
};
