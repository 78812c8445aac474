// Webhooks out over HTTP: an account's hooks (the secret shown once, at creation), a test event, and the
// delivery log. Owner-only: an OAuth access token cannot manage them. Another account's hook is a 404.
import { Elysia } from "elysia";
import type { AppContext } from "../../context";
import type { Principal } from "../../context";
import { authGuard } from "../auth/guard";
import { recordAudit } from "../audit/record";
import type { AuditAction } from "../audit/actions";
import { createWebhookBody, deliveriesQuery, updateWebhookBody, webhookParams } from "./model";
import { createWebhook, deleteWebhook, listDeliveries, listWebhooks, requireWebhook, sendTestEvent, updateWebhook, type Deps } from "./service";
import { webhookView } from "./view";

export const webhookRoutes = (ctx: AppContext) => {
  const deps: Deps = { db: ctx.db, allowHosts: ctx.config.fetchAllowHosts, vetTimeoutMs: ctx.config.fetchTimeoutMs, wake: () => ctx.jobs.wake() };
  const audit = (principal: Principal, action: AuditAction, id: string, details?: Record<string, unknown>) =>
    recordAudit(ctx.db, { action, actorId: principal.account.id, actorLabel: principal.account.email ?? principal.account.name, target: { kind: "webhook", id }, details }, ctx.log);
  return (
    new Elysia({ detail: { tags: ["Webhooks"] } })
      .use(authGuard(ctx))
      // The caller's hooks, newest first.
      .get("/api/v1/webhooks", async ({ principal }) => ({ webhooks: await listWebhooks(ctx.db, principal.account.id) }))
      // Create a hook; the answer carries its signing secret, the only time it is shown.
      .post(
        "/api/v1/webhooks",
        async ({ principal, body, set }) => {
          const created = await createWebhook(deps, principal.account.id, body);
          await audit(principal, "webhook.created", created.webhook.id, { url: created.webhook.url, events: created.webhook.events });
          set.status = 201;
          return created;
        },
        { body: createWebhookBody, detail: { summary: "Create a webhook (the secret is returned once)" } },
      )
      // One hook (never its secret).
      .get("/api/v1/webhooks/:webhookId", async ({ principal, params }) => ({
        webhook: webhookView(await requireWebhook(ctx.db, principal.account.id, params.webhookId)),
      }), { params: webhookParams })
      // Change its URL, events or brains, or turn it on or off.
      .patch(
        "/api/v1/webhooks/:webhookId",
        async ({ principal, params, body }) => {
          const webhook = await updateWebhook(deps, principal.account.id, params.webhookId, body);
          await audit(principal, "webhook.changed", webhook.id, { ...body });
          return { webhook };
        },
        { params: webhookParams, body: updateWebhookBody },
      )
      // Delete it with its delivery log.
      .delete(
        "/api/v1/webhooks/:webhookId",
        async ({ principal, params, set }) => {
          await deleteWebhook(ctx.db, principal.account.id, params.webhookId);
          await audit(principal, "webhook.deleted", params.webhookId);
          set.status = 204;
        },
        { params: webhookParams },
      )
      // Queue a `webhook.test` delivery; its outcome appears in the delivery log.
      .post(
        "/api/v1/webhooks/:webhookId/test",
        async ({ principal, params, set }) => {
          set.status = 202;
          return { delivery: await sendTestEvent(deps, principal.account.id, params.webhookId) };
        },
        { params: webhookParams },
      )
      // The delivery log, newest first: event, status, each attempt's status code and error, times.
      .get(
        "/api/v1/webhooks/:webhookId/deliveries",
        async ({ principal, params, query }) => ({
          deliveries: await listDeliveries(ctx.db, principal.account.id, params.webhookId, query.limit),
        }),
        { params: webhookParams, query: deliveriesQuery },
      )
  );
};
