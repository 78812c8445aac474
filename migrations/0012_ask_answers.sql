-- The ask history keeps each answer (its markdown with [[ref]] citations, and the cited pages) so a
-- question can be re-opened without asking again; brain-set asks name their set.
ALTER TABLE `asks` ADD `answer_md` text;
--> statement-breakpoint
ALTER TABLE `asks` ADD `citations` text;
--> statement-breakpoint
ALTER TABLE `asks` ADD `set_id` text;
--> statement-breakpoint
CREATE INDEX `asks_set_time` ON `asks` (`set_id`, `created_at`);
