-- Which lone rows a merge has taken (issue 15): a mark per row (`merged`) rewrote each source's lone row, a
-- page of its own (~3 KB), once more at its merge, and kept a partial index of the rows not yet merged. Rows
-- get increasing ids in commit order (AUTOINCREMENT under the write lock; a row written again takes a new
-- one), and a merge takes them in id order: one number per brain, the highest id merged, says the same.
ALTER TABLE `brain_numbers` ADD `lone_merged_through` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
-- Below the first unmerged row (rows merged above it are merged again: the merge's inserts ignore what is there).
UPDATE `brain_numbers` SET `lone_merged_through` = coalesce(
  (SELECT min(`id`) - 1 FROM `concept_lone` WHERE `brain_id` = `brain_numbers`.`brain_id` AND `merged` = 0),
  (SELECT max(`id`) FROM `concept_lone` WHERE `brain_id` = `brain_numbers`.`brain_id`),
  0);
--> statement-breakpoint
DROP INDEX IF EXISTS `concept_lone_unmerged`;
--> statement-breakpoint
ALTER TABLE `concept_lone` DROP COLUMN `merged`;
--> statement-breakpoint
CREATE INDEX `concept_lone_brain` ON `concept_lone` (`brain_id`);
