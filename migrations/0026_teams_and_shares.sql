-- Teams, roles, shares and invitations (issue 56). Every existing account becomes a person with a team of
-- its own (its admin), and every existing brain and brain set gets an `owner` share to the account it
-- belongs to, so every key, token and paid brain keeps answering exactly as before.
CREATE TABLE `teams` (
  `id` text PRIMARY KEY NOT NULL,
  `name` text NOT NULL,
  -- `team`: the members' v1 questions spend one quota, the team's. Null: each member's own plan applies.
  `plan_id` text REFERENCES `plans`(`id`),
  -- The account whose own team this is (made for every account), null for a team made on purpose.
  `personal_of` text REFERENCES `accounts`(`id`) ON DELETE CASCADE,
  `created_at` integer NOT NULL DEFAULT (cast(unixepoch('subsec') * 1000 as integer))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `teams_personal_of` ON `teams` (`personal_of`) WHERE `personal_of` IS NOT NULL;
--> statement-breakpoint
CREATE TABLE `team_members` (
  `team_id` text NOT NULL REFERENCES `teams`(`id`) ON DELETE CASCADE,
  `account_id` text NOT NULL REFERENCES `accounts`(`id`) ON DELETE CASCADE,
  `role` text NOT NULL CHECK (`role` IN ('admin', 'member')),
  `created_at` integer NOT NULL DEFAULT (cast(unixepoch('subsec') * 1000 as integer)),
  PRIMARY KEY (`team_id`, `account_id`)
);
--> statement-breakpoint
CREATE INDEX `team_members_account` ON `team_members` (`account_id`);
--> statement-breakpoint
CREATE TABLE `brain_shares` (
  `brain_id` text NOT NULL REFERENCES `brains`(`id`) ON DELETE CASCADE,
  `account_id` text REFERENCES `accounts`(`id`) ON DELETE CASCADE,
  `team_id` text REFERENCES `teams`(`id`) ON DELETE CASCADE,
  `role` text NOT NULL CHECK (`role` IN ('viewer', 'editor', 'owner')),
  `created_at` integer NOT NULL DEFAULT (cast(unixepoch('subsec') * 1000 as integer)),
  CHECK ((`account_id` IS NULL) <> (`team_id` IS NULL))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `brain_shares_brain_account` ON `brain_shares` (`brain_id`, `account_id`) WHERE `account_id` IS NOT NULL;
--> statement-breakpoint
CREATE UNIQUE INDEX `brain_shares_brain_team` ON `brain_shares` (`brain_id`, `team_id`) WHERE `team_id` IS NOT NULL;
--> statement-breakpoint
CREATE INDEX `brain_shares_account` ON `brain_shares` (`account_id`) WHERE `account_id` IS NOT NULL;
--> statement-breakpoint
CREATE INDEX `brain_shares_team` ON `brain_shares` (`team_id`) WHERE `team_id` IS NOT NULL;
--> statement-breakpoint
CREATE TABLE `brain_set_shares` (
  `set_id` text NOT NULL REFERENCES `brain_sets`(`id`) ON DELETE CASCADE,
  `account_id` text REFERENCES `accounts`(`id`) ON DELETE CASCADE,
  `team_id` text REFERENCES `teams`(`id`) ON DELETE CASCADE,
  `role` text NOT NULL CHECK (`role` IN ('viewer', 'editor', 'owner')),
  `created_at` integer NOT NULL DEFAULT (cast(unixepoch('subsec') * 1000 as integer)),
  CHECK ((`account_id` IS NULL) <> (`team_id` IS NULL))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `brain_set_shares_set_account` ON `brain_set_shares` (`set_id`, `account_id`) WHERE `account_id` IS NOT NULL;
--> statement-breakpoint
CREATE UNIQUE INDEX `brain_set_shares_set_team` ON `brain_set_shares` (`set_id`, `team_id`) WHERE `team_id` IS NOT NULL;
--> statement-breakpoint
CREATE INDEX `brain_set_shares_account` ON `brain_set_shares` (`account_id`) WHERE `account_id` IS NOT NULL;
--> statement-breakpoint
CREATE INDEX `brain_set_shares_team` ON `brain_set_shares` (`team_id`) WHERE `team_id` IS NOT NULL;
--> statement-breakpoint
-- An invitation by email to a team and/or a brain share. Only the token's SHA-256 is kept.
CREATE TABLE `invitations` (
  `id` text PRIMARY KEY NOT NULL,
  `email` text NOT NULL,
  `token_hash` text NOT NULL,
  `team_id` text REFERENCES `teams`(`id`) ON DELETE CASCADE,
  `team_role` text CHECK (`team_role` IN ('admin', 'member')),
  `brain_id` text REFERENCES `brains`(`id`) ON DELETE CASCADE,
  `brain_role` text CHECK (`brain_role` IN ('viewer', 'editor', 'owner')),
  `invited_by` text REFERENCES `accounts`(`id`) ON DELETE SET NULL,
  `created_at` integer NOT NULL DEFAULT (cast(unixepoch('subsec') * 1000 as integer)),
  `expires_at` integer NOT NULL,
  `accepted_at` integer,
  `accepted_by` text REFERENCES `accounts`(`id`) ON DELETE SET NULL,
  `revoked_at` integer,
  CHECK (`team_id` IS NOT NULL OR `brain_id` IS NOT NULL)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `invitations_token` ON `invitations` (`token_hash`);
--> statement-breakpoint
CREATE INDEX `invitations_team` ON `invitations` (`team_id`);
--> statement-breakpoint
-- A Team plan's quota, counted across its members.
CREATE TABLE `team_usage_counters` (
  `team_id` text NOT NULL REFERENCES `teams`(`id`) ON DELETE CASCADE,
  `counter` text NOT NULL,
  `period_start` integer NOT NULL,
  `used` integer NOT NULL DEFAULT 0,
  PRIMARY KEY (`team_id`, `counter`, `period_start`)
);
--> statement-breakpoint
-- A key may be read-only (ask, context, read) and may expire; existing keys are neither.
ALTER TABLE `api_keys` ADD `read_only` integer NOT NULL DEFAULT 0;
--> statement-breakpoint
ALTER TABLE `api_keys` ADD `expires_at` integer;
--> statement-breakpoint
INSERT INTO `teams` (`id`, `name`, `plan_id`, `personal_of`, `created_at`)
  SELECT 'team_' || `id`, `name`, NULL, `id`, `created_at` FROM `accounts`;
--> statement-breakpoint
INSERT INTO `team_members` (`team_id`, `account_id`, `role`, `created_at`)
  SELECT 'team_' || `id`, `id`, 'admin', `created_at` FROM `accounts`;
--> statement-breakpoint
INSERT INTO `brain_shares` (`brain_id`, `account_id`, `role`, `created_at`)
  SELECT `id`, `account_id`, 'owner', `created_at` FROM `brains`;
--> statement-breakpoint
INSERT INTO `brain_set_shares` (`set_id`, `account_id`, `role`, `created_at`)
  SELECT `id`, `account_id`, 'owner', `created_at` FROM `brain_sets`;
--> statement-breakpoint
-- A new brain or brain set is owned by the account that made it, whoever writes the row (the app, an
-- import, a restore by hand): a brain nobody can reach never exists.
CREATE TRIGGER `brains_owner_share` AFTER INSERT ON `brains` BEGIN
  INSERT INTO `brain_shares` (`brain_id`, `account_id`, `role`) VALUES (NEW.`id`, NEW.`account_id`, 'owner');
END;
--> statement-breakpoint
CREATE TRIGGER `brain_sets_owner_share` AFTER INSERT ON `brain_sets` BEGIN
  INSERT INTO `brain_set_shares` (`set_id`, `account_id`, `role`) VALUES (NEW.`id`, NEW.`account_id`, 'owner');
END;
