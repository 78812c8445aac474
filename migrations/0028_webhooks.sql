-- Webhooks out (issue 57): an account's hooks, the outbox of deliveries (one row per hook and event,
-- written in the same transaction as the change it announces) and each delivery's attempts.
CREATE TABLE `webhooks` (
  `id` text PRIMARY KEY NOT NULL,
  `account_id` text NOT NULL REFERENCES `accounts`(`id`) ON DELETE cascade,
  `url` text NOT NULL,
  `events` text NOT NULL,
  `brain_ids` text,
  `secret` text NOT NULL,
  `enabled` integer DEFAULT 1 NOT NULL,
  `disabled_reason` text,
  `failing_since` integer,
  `created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
  `updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `webhooks_account` ON `webhooks` (`account_id`);
--> statement-breakpoint
CREATE TABLE `webhook_deliveries` (
  `id` text PRIMARY KEY NOT NULL,
  `hook_id` text NOT NULL REFERENCES `webhooks`(`id`) ON DELETE cascade,
  `event_id` text NOT NULL,
  `dedupe_key` text,
  `type` text NOT NULL,
  `brain_id` text,
  `payload` text NOT NULL,
  `status` text DEFAULT 'pending' NOT NULL,
  `attempts` integer DEFAULT 0 NOT NULL,
  `status_code` integer,
  `error` text,
  `next_attempt_at` integer,
  `last_attempt_at` integer,
  `delivered_at` integer,
  `created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `webhook_deliveries_hook_created` ON `webhook_deliveries` (`hook_id`, `created_at`);
--> statement-breakpoint
CREATE INDEX `webhook_deliveries_event` ON `webhook_deliveries` (`event_id`);
--> statement-breakpoint
-- An event emitted again (a job that re-ran after a crash) is the same delivery, not a second one.
CREATE UNIQUE INDEX `webhook_deliveries_dedupe` ON `webhook_deliveries` (`hook_id`, `dedupe_key`);
--> statement-breakpoint
CREATE TABLE `webhook_attempts` (
  `id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
  `delivery_id` text NOT NULL REFERENCES `webhook_deliveries`(`id`) ON DELETE cascade,
  `attempt` integer NOT NULL,
  `status_code` integer,
  `error` text,
  `duration_ms` integer NOT NULL,
  `at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `webhook_attempts_delivery` ON `webhook_attempts` (`delivery_id`, `attempt`);
