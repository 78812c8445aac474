import { t } from "elysia";

// Ids in paths are any string: one that names no hook of the caller is a 404 (as brains do).
export const webhookParams = t.Object({ webhookId: t.String() });

const url = t.String({ minLength: 1, maxLength: 2000 });
// Event names are checked by the service, so an unknown one is named in the error with the known ones.
const events = t.Array(t.String({ maxLength: 100 }), { minItems: 1, maxItems: 20 });
const brainIds = t.Union([t.Array(t.String({ maxLength: 100 }), { maxItems: 100 }), t.Null()]);

export const createWebhookBody = t.Object({ url, events, brainIds: t.Optional(brainIds) });
export const updateWebhookBody = t.Object(
  { url: t.Optional(url), events: t.Optional(events), brainIds: t.Optional(brainIds), enabled: t.Optional(t.Boolean()) },
  { minProperties: 1 },
);
export const deliveriesQuery = t.Object({ limit: t.Optional(t.Numeric({ minimum: 1, maximum: 200 })) });

export type CreateWebhook = typeof createWebhookBody.static;
export type UpdateWebhook = typeof updateWebhookBody.static;
