// Webhooks out (migration 0028): an account's hooks, the outbox of deliveries and each delivery's attempts.
import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { accounts } from "./schema";

const now = sql`(cast(unixepoch('subsec') * 1000 as integer))`;

export const webhooks = sqliteTable(
  "webhooks",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    /** The event types sent, a JSON array (queue/events.ts EVENT_TYPES). */
    events: text("events", { mode: "json" }).notNull().$type<string[]>(),
    /** Only events of these brains (a JSON array); null: every brain of the account. */
    brainIds: text("brain_ids", { mode: "json" }).$type<string[] | null>(),
    /** The Standard Webhooks signing secret (`whsec_…`), shown to the owner once; stored sealed (db/sealed.ts), plain in rows made before. */
    secret: text("secret").notNull(),
    enabled: integer("enabled", { mode: "boolean" }).notNull().default(true),
    /** Why the server turned the hook off (a day of failed deliveries), or null. */
    disabledReason: text("disabled_reason"),
    /** When the current run of failed attempts began; null after a delivery succeeds. */
    failingSince: integer("failing_since"),
    createdAt: integer("created_at").notNull().default(now),
    updatedAt: integer("updated_at").notNull().default(now),
  },
  (t) => [index("webhooks_account").on(t.accountId)],
);

/** The outbox: one row per hook and event, the `webhook-id` receivers dedupe by (stable across retries). */
export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    hookId: text("hook_id")
      .notNull()
      .references(() => webhooks.id, { onDelete: "cascade" }),
    eventId: text("event_id").notNull(),
    /** The event's identity (queue/events.ts AppEvent.key): emitted twice, it is delivered once. */
    dedupeKey: text("dedupe_key"),
    type: text("type").notNull(),
    brainId: text("brain_id"),
    /** The body sent, exactly: `{type, timestamp, data}` as JSON text (the signature covers these bytes). */
    payload: text("payload").notNull(),
    status: text("status", { enum: ["pending", "delivered", "failed"] }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    statusCode: integer("status_code"),
    error: text("error"),
    nextAttemptAt: integer("next_attempt_at"),
    lastAttemptAt: integer("last_attempt_at"),
    deliveredAt: integer("delivered_at"),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [
    index("webhook_deliveries_hook_created").on(t.hookId, t.createdAt),
    index("webhook_deliveries_event").on(t.eventId),
    uniqueIndex("webhook_deliveries_dedupe").on(t.hookId, t.dedupeKey),
  ],
);

export const webhookAttempts = sqliteTable(
  "webhook_attempts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    deliveryId: text("delivery_id")
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: "cascade" }),
    attempt: integer("attempt").notNull(),
    statusCode: integer("status_code"),
    error: text("error"),
    durationMs: integer("duration_ms").notNull(),
    at: integer("at").notNull(),
  },
  (t) => [index("webhook_attempts_delivery").on(t.deliveryId, t.attempt)],
);

export type Webhook = typeof webhooks.$inferSelect;
export type WebhookDelivery = typeof webhookDeliveries.$inferSelect;
