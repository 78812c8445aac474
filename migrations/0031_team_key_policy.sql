-- A team's key policy (issue 56): its admins may require its members' API keys to be read-only and/or to
-- expire within a number of days. Checked when a member makes a key; existing keys are left as they are.
ALTER TABLE `teams` ADD `key_read_only` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE `teams` ADD `key_max_days` integer;
