CREATE TABLE `paid_brains` (
	`brain_id` text PRIMARY KEY NOT NULL,
	`price_atomic` integer NOT NULL,
	`pay_to` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`brain_id`) REFERENCES `brains`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `payments` (
	`nonce` text PRIMARY KEY NOT NULL,
	`payer` text NOT NULL,
	`pay_to` text NOT NULL,
	`resource` text NOT NULL,
	`amount_atomic` text NOT NULL,
	`status` text DEFAULT 'reserved' NOT NULL,
	`tx_hash` text,
	`reason` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `payments_payer` ON `payments` (`payer`);--> statement-breakpoint
CREATE INDEX `payments_status` ON `payments` (`status`);