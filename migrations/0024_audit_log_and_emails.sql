-- Who did what to access (issue 56): sign-ins, invitations, roles, shares, keys, tokens, deactivations.
-- Kept by BRAINBOX_AUDIT_RETENTION_DAYS; read newest first by a team's admins.
CREATE TABLE `audit_events` (
  `id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
  `at` integer NOT NULL,
  `action` text NOT NULL,
  `actor_id` text,
  `actor_label` text,
  `team_id` text,
  `target_kind` text,
  `target_id` text,
  `ip` text,
  `details` text
);
--> statement-breakpoint
CREATE INDEX `audit_events_at` ON `audit_events` (`at`);
--> statement-breakpoint
CREATE INDEX `audit_events_team_at` ON `audit_events` (`team_id`, `at`);
--> statement-breakpoint
CREATE INDEX `audit_events_actor_at` ON `audit_events` (`actor_id`, `at`);
--> statement-breakpoint
-- A person's email address (stored lower-cased): sign-in, invitations and single sign-on match by it.
-- Accounts made before people existed have none until one is set.
ALTER TABLE `accounts` ADD `email` text;
--> statement-breakpoint
CREATE UNIQUE INDEX `accounts_email` ON `accounts` (`email`);
