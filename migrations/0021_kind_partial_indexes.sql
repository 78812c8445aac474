-- Pages of one kind in slug order (the wiki's list filtered by kind, the graph by kind) read from partial
-- indexes of the few kinds that need one (issue 15): `pages_brain_kind` held every page, so each source page
-- written was one more insert at a random place (its slug) in a third index of pages, ~8% of an import's
-- log at 20k-30k sources. Source pages, most of a brain, are listed through `pages_brain_slug`.
DROP INDEX IF EXISTS `pages_brain_kind`;
--> statement-breakpoint
CREATE INDEX `pages_brain_concept` ON `pages` (`brain_id`, `slug`) WHERE `kind` = 'concept';
--> statement-breakpoint
CREATE INDEX `pages_brain_note` ON `pages` (`brain_id`, `slug`) WHERE `kind` = 'note';
