-- The wiki (issue 13): pages gain a kind (source | note | concept), an edited flag, a revision and a nullable
-- source (concept pages belong to no source). SQLite cannot drop NOT NULL in place, so `pages` is rebuilt
-- with the same ids: the FTS5 rows (keyed by pages.id) stay valid. page_vectors is moved aside first, as
-- dropping `pages` with foreign keys on would cascade-delete every vector.
CREATE TABLE `page_vectors_keep` AS SELECT * FROM `page_vectors`;
--> statement-breakpoint
DROP TABLE `page_vectors`;
--> statement-breakpoint
CREATE TABLE `pages_new` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`brain_id` text NOT NULL,
	`source_id` text,
	`kind` text DEFAULT 'source' NOT NULL,
	`slug` text NOT NULL,
	`title` text NOT NULL,
	`markdown` text NOT NULL,
	`position` integer DEFAULT 0 NOT NULL,
	`edited` integer DEFAULT 0 NOT NULL,
	`source_changed` integer DEFAULT 0 NOT NULL,
	`revision` integer DEFAULT 1 NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`brain_id`) REFERENCES `brains`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`source_id`) REFERENCES `sources`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `pages_new` (id, brain_id, source_id, kind, slug, title, markdown, position, created_at, updated_at)
SELECT p.id, p.brain_id, p.source_id,
  CASE WHEN (SELECT s.type FROM sources s WHERE s.id = p.source_id) = 'note' THEN 'note' ELSE 'source' END,
  p.slug, p.title, p.markdown, p.position, p.created_at, p.updated_at
FROM `pages` p;
--> statement-breakpoint
DROP TABLE `pages`;
--> statement-breakpoint
ALTER TABLE `pages_new` RENAME TO `pages`;
--> statement-breakpoint
CREATE UNIQUE INDEX `pages_brain_slug` ON `pages` (`brain_id`,`slug`);
--> statement-breakpoint
CREATE INDEX `pages_source` ON `pages` (`source_id`);
--> statement-breakpoint
CREATE INDEX `pages_brain_kind` ON `pages` (`brain_id`,`kind`,`slug`);
--> statement-breakpoint
CREATE TRIGGER `pages_fts_insert` AFTER INSERT ON `pages` BEGIN
  INSERT INTO pages_fts(rowid, title, body) VALUES (new.id, new.title, new.markdown);
END;
--> statement-breakpoint
CREATE TRIGGER `pages_fts_delete` AFTER DELETE ON `pages` BEGIN
  INSERT INTO pages_fts(pages_fts, rowid, title, body) VALUES ('delete', old.id, old.title, old.markdown);
END;
--> statement-breakpoint
CREATE TRIGGER `pages_fts_update` AFTER UPDATE OF title, markdown ON `pages` BEGIN
  INSERT INTO pages_fts(pages_fts, rowid, title, body) VALUES ('delete', old.id, old.title, old.markdown);
  INSERT INTO pages_fts(rowid, title, body) VALUES (new.id, new.title, new.markdown);
END;
--> statement-breakpoint
CREATE TABLE `page_vectors` (
	`page_id` integer NOT NULL,
	`brain_id` text NOT NULL,
	`model` text NOT NULL,
	`embedding` blob NOT NULL,
	PRIMARY KEY(`page_id`, `model`),
	FOREIGN KEY (`page_id`) REFERENCES `pages`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `page_vectors` (page_id, brain_id, model, embedding) SELECT page_id, brain_id, model, embedding FROM `page_vectors_keep`;
--> statement-breakpoint
DROP TABLE `page_vectors_keep`;
--> statement-breakpoint
CREATE INDEX `page_vectors_brain_model` ON `page_vectors` (`brain_id`,`model`);
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
--> statement-breakpoint
-- Wikilinks as edges: one row per (page, target slug), re-derived whenever a page's markdown is written.
-- The target is a slug (it may not exist yet); backlinks read by (brain_id, to_slug).
CREATE TABLE `page_links` (
	`from_page_id` integer NOT NULL REFERENCES `pages`(`id`) ON DELETE cascade,
	`brain_id` text NOT NULL,
	`to_slug` text NOT NULL,
	PRIMARY KEY (`from_page_id`, `to_slug`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX `page_links_target` ON `page_links` (`brain_id`, `to_slug`);
--> statement-breakpoint
-- Every saved state of a page (by its source or its owner), newest revision highest.
CREATE TABLE `page_revisions` (
	`page_id` integer NOT NULL REFERENCES `pages`(`id`) ON DELETE cascade,
	`revision` integer NOT NULL,
	`title` text NOT NULL,
	`markdown` text NOT NULL,
	`author` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY (`page_id`, `revision`)
) WITHOUT ROWID;
--> statement-breakpoint
-- Where a concept is named: one row per (concept, source page, sentence). A concept page is derived from
-- its mention rows, read by (brain_id, concept) with a LIMIT: its cost does not grow with the brain.
CREATE TABLE `concept_mentions` (
	`brain_id` text NOT NULL,
	`concept` text NOT NULL,
	`source_id` text NOT NULL REFERENCES `sources`(`id`) ON DELETE cascade,
	`page_slug` text NOT NULL,
	`surface` text NOT NULL,
	`sentence` text NOT NULL,
	`weight` real NOT NULL DEFAULT 1
);
--> statement-breakpoint
CREATE INDEX `concept_mentions_concept` ON `concept_mentions` (`brain_id`, `concept`);
--> statement-breakpoint
CREATE INDEX `concept_mentions_source` ON `concept_mentions` (`source_id`);
--> statement-breakpoint
-- Alias keys of a concept ("curie" → "marie-curie"): a new source's "Curie" joins the existing concept.
CREATE TABLE `concept_aliases` (
	`brain_id` text NOT NULL,
	`alias` text NOT NULL,
	`concept` text NOT NULL,
	PRIMARY KEY (`brain_id`, `alias`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE INDEX `concept_mentions_page` ON `concept_mentions` (`brain_id`, `page_slug`);
--> statement-breakpoint
-- Concepts whose page must be re-derived, written in the same batch as the change that touched them (a
-- source's pages, its deletion), so a kill -9 between the write and the refresh loses nothing.
CREATE TABLE `concept_dirty` (
	`brain_id` text NOT NULL,
	`concept` text NOT NULL,
	PRIMARY KEY (`brain_id`, `concept`)
) WITHOUT ROWID;
