-- Concepts named by one source only (almost every noun phrase of a brain) no longer get a mention row each:
-- that was ~35 random-order index inserts per source and the largest table of a brain. A source's lone
-- concepts are kept as one appended row, and merged into `concept_seen` (one small row per concept and
-- source, sorted batches) where a second source naming one is found. Existing mention rows stay valid.
CREATE TABLE `concept_lone` (
	`source_id` text PRIMARY KEY NOT NULL,
	`brain_id` text NOT NULL,
	`mentions` text NOT NULL,
	`merged` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`source_id`) REFERENCES `sources`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `concept_lone_unmerged` ON `concept_lone` (`brain_id`) WHERE `merged` = 0;
--> statement-breakpoint
CREATE TABLE `concept_seen` (
	`brain_id` text NOT NULL,
	`concept` text NOT NULL,
	`source_id` text NOT NULL,
	PRIMARY KEY(`brain_id`, `concept`, `source_id`),
	FOREIGN KEY (`brain_id`) REFERENCES `brains`(`id`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
