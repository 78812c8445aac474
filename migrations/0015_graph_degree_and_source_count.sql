-- Counts kept by triggers instead of counted per request (issues 13 and 15). `pages.degree` is the graph's
-- degree (links from the page + links to its slug, the same count GET /graph computed per page: ~190 ms at
-- 100k pages, every page counted to find the 500 best-connected); the index reads those 500 in order.
-- `brains.source_count` is what the brains list counted with count(*) after every write.
ALTER TABLE `pages` ADD `degree` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
UPDATE `pages` SET `degree` =
  (SELECT count(*) FROM page_links l WHERE l.from_page_id = pages.id)
  + (SELECT count(*) FROM page_links l WHERE l.brain_id = pages.brain_id AND l.to_slug = pages.slug);
--> statement-breakpoint
-- Per kind, best-connected first (ties by slug): the default graph merges the three kinds' first `limit`.
CREATE INDEX `pages_brain_kind_degree` ON `pages` (`brain_id`, `kind`, `degree` DESC, `slug`);
--> statement-breakpoint
CREATE TRIGGER `page_links_degree_insert` AFTER INSERT ON `page_links` BEGIN
  UPDATE pages SET degree = degree + 1 WHERE id = new.from_page_id;
  UPDATE pages SET degree = degree + 1 WHERE brain_id = new.brain_id AND slug = new.to_slug;
END;
--> statement-breakpoint
CREATE TRIGGER `page_links_degree_delete` AFTER DELETE ON `page_links` BEGIN
  UPDATE pages SET degree = degree - 1 WHERE id = old.from_page_id;
  UPDATE pages SET degree = degree - 1 WHERE brain_id = old.brain_id AND slug = old.to_slug;
END;
--> statement-breakpoint
CREATE TRIGGER `page_links_degree_update` AFTER UPDATE ON `page_links` BEGIN
  UPDATE pages SET degree = degree - 1 WHERE id = old.from_page_id;
  UPDATE pages SET degree = degree - 1 WHERE brain_id = old.brain_id AND slug = old.to_slug;
  UPDATE pages SET degree = degree + 1 WHERE id = new.from_page_id;
  UPDATE pages SET degree = degree + 1 WHERE brain_id = new.brain_id AND slug = new.to_slug;
END;
--> statement-breakpoint
-- A page whose slug was linked before it existed (a concept named before its page, a source page written
-- again on reprocess) starts with those links counted. Only then: most new pages have none.
CREATE TRIGGER `pages_degree_insert` AFTER INSERT ON `pages`
WHEN EXISTS (SELECT 1 FROM page_links l WHERE l.brain_id = new.brain_id AND l.to_slug = new.slug) BEGIN
  UPDATE pages SET degree = degree + (SELECT count(*) FROM page_links l WHERE l.brain_id = new.brain_id AND l.to_slug = new.slug) WHERE id = new.id;
END;
--> statement-breakpoint
CREATE TRIGGER `pages_degree_slug` AFTER UPDATE OF slug, brain_id ON `pages` WHEN old.slug IS NOT new.slug OR old.brain_id IS NOT new.brain_id BEGIN
  UPDATE pages SET degree = (SELECT count(*) FROM page_links l WHERE l.from_page_id = new.id)
    + (SELECT count(*) FROM page_links l WHERE l.brain_id = new.brain_id AND l.to_slug = new.slug) WHERE id = new.id;
END;
--> statement-breakpoint
ALTER TABLE `brains` ADD `source_count` integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
UPDATE `brains` SET `source_count` = (SELECT count(*) FROM sources s WHERE s.brain_id = brains.id);
--> statement-breakpoint
CREATE TRIGGER `sources_count_insert` AFTER INSERT ON `sources` BEGIN
  UPDATE brains SET source_count = source_count + 1 WHERE id = new.brain_id;
END;
--> statement-breakpoint
CREATE TRIGGER `sources_count_delete` AFTER DELETE ON `sources` BEGIN
  UPDATE brains SET source_count = source_count - 1 WHERE id = old.brain_id;
END;
--> statement-breakpoint
CREATE TRIGGER `sources_count_move` AFTER UPDATE OF brain_id ON `sources` WHEN old.brain_id IS NOT new.brain_id BEGIN
  UPDATE brains SET source_count = source_count - 1 WHERE id = old.brain_id;
  UPDATE brains SET source_count = source_count + 1 WHERE id = new.brain_id;
END;
