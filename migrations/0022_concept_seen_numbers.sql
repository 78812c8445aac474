-- `concept_seen` keyed by small integers (issue 15): a row was the brain's id, the concept and the source's id
-- as text (66 bytes, 676k rows and 49 MiB at 20k sources, past the page cache at 50k), and every merge writes
-- nearly every page of it. Now (brain number, concept, lone row id): ~25 bytes a row. A brain's number comes
-- from `brain_numbers` (given by a trigger to each new brain; never reused); a lone row's id is an explicit
-- AUTOINCREMENT key, so it survives VACUUM and a replaced row never takes an id a `concept_seen` row still holds.
CREATE TABLE `brain_numbers` (
	`number` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`brain_id` text NOT NULL UNIQUE,
	FOREIGN KEY (`brain_id`) REFERENCES `brains`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `brain_numbers` (`brain_id`) SELECT `id` FROM `brains` ORDER BY `created_at`, `id`;
--> statement-breakpoint
CREATE TRIGGER `brains_number` AFTER INSERT ON `brains` BEGIN
  INSERT INTO `brain_numbers` (`brain_id`) VALUES (new.`id`);
END;
--> statement-breakpoint
CREATE TABLE `concept_lone_numbered` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`source_id` text NOT NULL UNIQUE,
	`brain_id` text NOT NULL,
	`mentions` text NOT NULL,
	`sentences` text DEFAULT '[]' NOT NULL,
	`merged` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`source_id`) REFERENCES `sources`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `concept_lone_numbered` (`id`, `source_id`, `brain_id`, `mentions`, `sentences`, `merged`)
  SELECT rowid, `source_id`, `brain_id`, `mentions`, `sentences`, `merged` FROM `concept_lone` ORDER BY rowid;
--> statement-breakpoint
CREATE TABLE `concept_seen_numbered` (
	`brain` integer NOT NULL,
	`concept` text NOT NULL,
	`lone` integer NOT NULL,
	PRIMARY KEY(`brain`, `concept`, `lone`),
	FOREIGN KEY (`brain`) REFERENCES `brain_numbers`(`number`) ON UPDATE no action ON DELETE cascade
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `concept_seen_numbered` (`brain`, `concept`, `lone`)
  SELECT n.`number`, s.`concept`, l.`id` FROM `concept_seen` s
  CROSS JOIN `brain_numbers` n ON n.`brain_id` = s.`brain_id`
  CROSS JOIN `concept_lone_numbered` l ON l.`source_id` = s.`source_id`
  ORDER BY 1, 2, 3;
--> statement-breakpoint
DROP TABLE `concept_seen`;
--> statement-breakpoint
DROP TABLE `concept_lone`;
--> statement-breakpoint
ALTER TABLE `concept_lone_numbered` RENAME TO `concept_lone`;
--> statement-breakpoint
ALTER TABLE `concept_seen_numbered` RENAME TO `concept_seen`;
--> statement-breakpoint
CREATE INDEX `concept_lone_unmerged` ON `concept_lone` (`brain_id`) WHERE `merged` = 0;
