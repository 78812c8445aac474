ALTER TABLE `payments` ADD `brain_id` text;--> statement-breakpoint
ALTER TABLE `payments` ADD `action` text;--> statement-breakpoint
ALTER TABLE `payments` ADD `x402_version` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `payments` ADD `valid_before` integer;--> statement-breakpoint
ALTER TABLE `payments` ADD `delivered_at` integer;--> statement-breakpoint
UPDATE `payments` SET `delivered_at` = `updated_at` WHERE `status` = 'settled';--> statement-breakpoint
UPDATE `payments` SET `brain_id` = substr(`resource`, instr(`resource`, '/api/x402/') + 10, length(`resource`) - instr(`resource`, '/api/x402/') - 13) WHERE `resource` LIKE '%/api/x402/%/ask';--> statement-breakpoint
UPDATE `payments` SET `brain_id` = substr(`resource`, instr(`resource`, 'brainId=') + 8) WHERE `brain_id` IS NULL AND `resource` LIKE '%?tool=%brainId=%';--> statement-breakpoint
UPDATE `payments` SET `action` = 'geo/scan' WHERE `resource` LIKE '%/api/x402/geo/scan';--> statement-breakpoint
UPDATE `payments` SET `action` = 'social/image' WHERE `resource` LIKE '%/api/x402/social/image';--> statement-breakpoint
UPDATE `payments` SET `action` = 'clips/render' WHERE `resource` LIKE '%/api/x402/clips/render';--> statement-breakpoint
CREATE INDEX `payments_brain` ON `payments` (`brain_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `payments_action` ON `payments` (`action`,`created_at`);
