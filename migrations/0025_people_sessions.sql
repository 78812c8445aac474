-- People sign in (issue 56): a password (argon2id) and a deactivation stamp on accounts; one kind of person
-- session (web_sessions, rebuilt: how it was opened, idle and absolute expiry, a public id); single-use
-- setup and reset links.
ALTER TABLE `accounts` ADD `password_hash` text;
--> statement-breakpoint
ALTER TABLE `accounts` ADD `deactivated_at` integer;
--> statement-breakpoint
CREATE TABLE `web_sessions_new` (
	`hash` text PRIMARY KEY NOT NULL,
	`id` text NOT NULL,
	`account_id` text NOT NULL,
	`via` text NOT NULL,
	`credential_id` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`last_seen_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`revoked_at` integer,
	`ip` text,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `web_sessions_new` (`hash`, `id`, `account_id`, `via`, `credential_id`, `created_at`, `last_seen_at`, `expires_at`, `revoked_at`)
  SELECT `hash`, 'ses_' || substr(`hash`, 1, 16), `account_id`, `via`, `credential_id`, `created_at`, `created_at`, `expires_at`, `revoked_at` FROM `web_sessions`;
--> statement-breakpoint
DROP TABLE `web_sessions`;
--> statement-breakpoint
ALTER TABLE `web_sessions_new` RENAME TO `web_sessions`;
--> statement-breakpoint
CREATE INDEX `web_sessions_account` ON `web_sessions` (`account_id`);
--> statement-breakpoint
CREATE UNIQUE INDEX `web_sessions_id` ON `web_sessions` (`id`);
--> statement-breakpoint
CREATE TABLE `password_links` (
	`hash` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`purpose` text NOT NULL,
	`created_by` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `password_links_account` ON `password_links` (`account_id`);
