-- Every answered question (v1, unversioned, brain sets, x402, MCP): `id` is the v1 ask's id, and the plans
-- module can count an account's asks per surface and day from here.
CREATE TABLE `asks` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` text REFERENCES `accounts`(`id`) ON DELETE set null,
	`brain_id` text NOT NULL REFERENCES `brains`(`id`) ON DELETE cascade,
	`surface` text NOT NULL,
	`question` text NOT NULL,
	`thin` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `asks_account_time` ON `asks` (`account_id`, `created_at`);
--> statement-breakpoint
CREATE INDEX `asks_brain` ON `asks` (`brain_id`);
--> statement-breakpoint
-- A version per brain and embedding model, bumped by every vector write (also cascaded deletes), so an
-- in-memory vector index in any process can tell with one point read that it is stale.
CREATE TABLE `page_vector_versions` (
	`brain_id` text NOT NULL,
	`model` text NOT NULL,
	`version` integer NOT NULL DEFAULT 0,
	PRIMARY KEY (`brain_id`, `model`)
);
--> statement-breakpoint
CREATE TRIGGER `page_vectors_version_insert` AFTER INSERT ON `page_vectors` BEGIN
  INSERT OR IGNORE INTO page_vector_versions (brain_id, model) VALUES (new.brain_id, new.model);
  UPDATE page_vector_versions SET version = version + 1 WHERE brain_id = new.brain_id AND model = new.model;
END;
--> statement-breakpoint
CREATE TRIGGER `page_vectors_version_delete` AFTER DELETE ON `page_vectors` BEGIN
  UPDATE page_vector_versions SET version = version + 1 WHERE brain_id = old.brain_id AND model = old.model;
END;
--> statement-breakpoint
CREATE TRIGGER `page_vectors_version_update` AFTER UPDATE ON `page_vectors` BEGIN
  INSERT OR IGNORE INTO page_vector_versions (brain_id, model) VALUES (new.brain_id, new.model);
  UPDATE page_vector_versions SET version = version + 1 WHERE brain_id = new.brain_id AND model = new.model;
  UPDATE page_vector_versions SET version = version + 1 WHERE brain_id = old.brain_id AND model = old.model;
END;
