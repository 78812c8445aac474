// A brain as an Obsidian vault: export it as a zip, import a vault zip into it. Both need an editor or owner
// of the brain (an export carries every source file of the brain, more than a viewer reads through the
// API); no role is a 404, viewer a 403, as on every brain route.
import { Elysia, t } from "elysia";
import type { AppContext, Principal } from "../../context";
import { readCappedBytes } from "../../http/errors";
import { clientAddressOf } from "../../http/client-address";
import { AppError } from "../../lib/errors";
import { scheduleEmbedding } from "../../jobs/embed-pages";
import type { AuditAction } from "../audit/actions";
import { recordAudit } from "../audit/record";
import { authGuard } from "../auth/guard";
import { editableBrain } from "../brains/service";
import { exportVault } from "./export";
import { importNotes, notesOfZip, vaultTooLarge } from "./import";

const brainParams = t.Object({ brainId: t.String() });
const binary = { schema: { type: "string", format: "binary" } } as const;
/** OpenAPI: the bodies these routes take and give, which no TypeBox schema describes (raw zip bytes). */
const exportDetail = { summary: "Export the brain as an Obsidian vault (zip)", responses: { 200: { description: "The vault", content: { "application/zip": binary } } } } as const;
const importDetail = {
  summary: "Import an Obsidian vault (zip) into the brain",
  requestBody: { required: true, content: { "application/zip": binary, "multipart/form-data": { schema: { type: "object", properties: { file: { type: "string", format: "binary" } } } } } },
} as const;
const ZIP_TYPES = /^(application\/(zip|x-zip-compressed|octet-stream)|multipart\/form-data)\b/i;
/** Pages listed in an import's answer (the rest are counted). */
const LISTED_PAGES = 1000;

export const vaultRoutes = (ctx: AppContext) => {
  const limits = { maxNotes: ctx.config.vaultMaxNotes, maxExpandedBytes: ctx.config.vaultMaxExpandedBytes };
  // One import at a time per brain in this process: each picks its slugs from what the brain holds.
  const importing = new Map<string, Promise<unknown>>();
  const oneAtATime = <T>(brainId: string, run: () => Promise<T>): Promise<T> => {
    const next = (importing.get(brainId) ?? Promise.resolve()).catch(() => undefined).then(run);
    importing.set(brainId, next);
    void next.finally(() => importing.get(brainId) === next && importing.delete(brainId)).catch(() => undefined);
    return next;
  };
  const audit = (action: AuditAction, brainId: string, principal: Principal, request: Request, details: Record<string, unknown>) =>
    recordAudit(ctx.db, { action, actorId: principal.account.id, actorLabel: principal.account.email ?? principal.account.name, target: { kind: "brain", id: brainId }, ip: clientAddressOf(request), details }, ctx.log);
  return (
    new Elysia({ detail: { tags: ["Vault"] } })
      .use(authGuard(ctx, { GET: "brains:read", POST: "sources:write" }))
      // The brain as a zip of Markdown notes Obsidian opens as a vault, with its source files (streamed).
      .get(
        "/api/v1/brains/:brainId/export",
        async ({ principal, params, request }) => {
          const brain = await editableBrain(ctx.db, principal.account.id, params.brainId);
          const body = exportVault({ db: ctx.db, storage: ctx.storage, log: ctx.log }, brain, (counts) => void audit("brain.exported", brain.id, principal, request, counts));
          return new Response(body, { headers: { "content-type": "application/zip", "content-disposition": `attachment; filename="${brain.slug}-vault.zip"` } });
        },
        { params: brainParams, detail: exportDetail },
      )
      // A vault zip (the body, or the `file` field of a form) into the brain: each note a page, titles and links kept.
      .post(
        "/api/v1/brains/:brainId/import",
        async ({ principal, params, request, set }) => {
          const brain = await editableBrain(ctx.db, principal.account.id, params.brainId);
          const zip = await zipOf(request, ctx.config.vaultMaxBytes);
          const { files, skipped } = notesOfZip(zip, limits);
          const result = await oneAtATime(brain.id, () => importNotes(ctx.db, brain.id, files, skipped));
          if (ctx.ai.embedder) await scheduleEmbedding(ctx.db, ctx.ai.embedder.model);
          ctx.jobs.wake();
          void audit("brain.imported", brain.id, principal, request, { notes: result.imported, skipped: result.skipped });
          set.status = 201;
          return { import: { imported: result.imported, skipped: result.skipped, pages: result.pages.slice(0, LISTED_PAGES) } };
        },
        { params: brainParams, detail: importDetail },
      )
  );
};

/** The zip's bytes, from a zip body or a form's `file` field, within the size limit. */
async function zipOf(request: Request, limit: number): Promise<Uint8Array> {
  const type = request.headers.get("content-type") ?? "application/zip";
  if (!ZIP_TYPES.test(type))
    throw new AppError("unsupported_media_type", `Send the vault as a zip: Content-Type application/zip, or a multipart form with the zip in its file field (got ${type})`);
  const bytes = await readCappedBytes(request, limit).catch((e) => {
    throw e instanceof AppError && e.code === "payload_too_large" ? vaultTooLarge(limit) : e;
  });
  if (!/^multipart\//i.test(type)) return bytes;
  const form = await new Response(bytes as unknown as BodyInit, { headers: { "content-type": type } }).formData().catch(() => {
    throw new AppError("invalid_request", "The multipart form could not be read");
  });
  const file = form.get("file") ?? [...form.values()].find((v) => typeof v !== "string");
  if (!file || typeof file === "string") throw new AppError("invalid_request", "The form has no file field holding the vault zip", { field: "file" });
  return new Uint8Array(await file.arrayBuffer());
}
