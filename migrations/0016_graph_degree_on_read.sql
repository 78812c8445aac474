-- The graph's degrees are counted when the graph is read again, not kept by triggers (issue 15). Migration
-- 0015 kept `pages.degree` on every link written (its page and its target, and their index entries): 15% of
-- the import rate at 10k-20k sources (232 → 199 sources/s, 3.9 → 4.6 ms of main-thread CPU per source;
-- a narrow table of degrees instead measured the same 204/s). The default graph is read rarely and cached
-- while the brain is unchanged; `brains.source_count` (0015) stays.
DROP TRIGGER IF EXISTS `page_links_degree_insert`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `page_links_degree_delete`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `page_links_degree_update`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `pages_degree_insert`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `pages_degree_slug`;
--> statement-breakpoint
DROP INDEX IF EXISTS `pages_brain_kind_degree`;
--> statement-breakpoint
ALTER TABLE `pages` DROP COLUMN `degree`;
