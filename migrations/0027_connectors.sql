-- Connectors (issue 57): a brain kept in sync with a website, a feed, its own links (and, later, Git and
-- folders). A run is one sync; its progress lives in connector_items, so a run that dies resumes there.
CREATE TABLE `connectors` (
  `id` text PRIMARY KEY NOT NULL,
  `brain_id` text NOT NULL REFERENCES `brains`(`id`) ON DELETE CASCADE,
  `kind` text NOT NULL,
  `name` text NOT NULL,
  `config` text NOT NULL DEFAULT '{}',
  `secrets` text,
  `schedule` text NOT NULL DEFAULT 'manual',
  `paused` integer NOT NULL DEFAULT 0,
  `next_run_at` integer,
  `deleting` integer NOT NULL DEFAULT 0,
  `created_at` integer NOT NULL,
  `updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `connectors_brain` ON `connectors` (`brain_id`);
--> statement-breakpoint
CREATE INDEX `connectors_due` ON `connectors` (`next_run_at`) WHERE `next_run_at` IS NOT NULL;
--> statement-breakpoint
CREATE TABLE `connector_runs` (
  `id` text PRIMARY KEY NOT NULL,
  `connector_id` text NOT NULL REFERENCES `connectors`(`id`) ON DELETE CASCADE,
  `trigger` text NOT NULL,
  `status` text NOT NULL DEFAULT 'queued',
  `phase` text NOT NULL DEFAULT 'list',
  `started_at` integer,
  `finished_at` integer,
  `added` integer NOT NULL DEFAULT 0,
  `updated` integer NOT NULL DEFAULT 0,
  `unchanged` integer NOT NULL DEFAULT 0,
  `removed` integer NOT NULL DEFAULT 0,
  `failed` integer NOT NULL DEFAULT 0,
  `requests` integer NOT NULL DEFAULT 0,
  `errors` text NOT NULL DEFAULT '[]',
  `created_at` integer NOT NULL
);
--> statement-breakpoint
-- One run at a time per connector, across replicas: a second queued or running run cannot be inserted.
CREATE UNIQUE INDEX `connector_runs_one_active` ON `connector_runs` (`connector_id`) WHERE `status` IN ('queued', 'running');
--> statement-breakpoint
CREATE INDEX `connector_runs_connector` ON `connector_runs` (`connector_id`, `created_at`);
--> statement-breakpoint
CREATE TABLE `connector_items` (
  `connector_id` text NOT NULL REFERENCES `connectors`(`id`) ON DELETE CASCADE,
  `item_key` text NOT NULL,
  `ref` text NOT NULL DEFAULT '{}',
  `source_id` text REFERENCES `sources`(`id`) ON DELETE SET NULL,
  `version` text,
  `queued_run` text,
  `done_run` text,
  `seen_run` text,
  PRIMARY KEY (`connector_id`, `item_key`)
);
--> statement-breakpoint
CREATE INDEX `connector_items_frontier` ON `connector_items` (`connector_id`, `queued_run`, `done_run`);
--> statement-breakpoint
-- A deleted source clears its item's source_id (ON DELETE SET NULL) through this index, not a scan.
CREATE INDEX `connector_items_source` ON `connector_items` (`source_id`) WHERE `source_id` IS NOT NULL;
--> statement-breakpoint
ALTER TABLE `sources` ADD `connector_id` text REFERENCES `connectors`(`id`) ON DELETE SET NULL;
--> statement-breakpoint
CREATE INDEX `sources_connector` ON `sources` (`connector_id`) WHERE `connector_id` IS NOT NULL;
