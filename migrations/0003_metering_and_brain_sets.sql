CREATE TABLE `brain_set_advisors` (
	`set_id` text NOT NULL,
	`brain_id` text NOT NULL,
	`position` integer NOT NULL,
	PRIMARY KEY(`set_id`, `brain_id`),
	FOREIGN KEY (`set_id`) REFERENCES `brain_sets`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`brain_id`) REFERENCES `brains`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `brain_sets` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`name` text NOT NULL,
	`primary_brain_id` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`primary_brain_id`) REFERENCES `brains`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `brain_sets_account` ON `brain_sets` (`account_id`);--> statement-breakpoint
CREATE TABLE `usage_counters` (
	`account_id` text NOT NULL,
	`counter` text NOT NULL,
	`period_start` integer NOT NULL,
	`used` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`account_id`, `counter`, `period_start`),
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
