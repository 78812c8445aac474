-- Ingestion that stays fast as a brain grows (issue 15). Mentions are no longer read by page (related
-- concepts come from page_links, the graph's edges): that index was one more random-order insert per
-- mention row, the fastest-growing write of an import (a brain of 10k sources held 350k mention rows).
DROP INDEX IF EXISTS `concept_mentions_page`;
--> statement-breakpoint
-- FTS5 merges a level once it holds 2 segments (default 4): fewer segments for every query to visit, as
-- an import keeps flushing new ones (a phrase query over 9 segments cost 6× the same over one).
INSERT INTO pages_fts(pages_fts, rank) VALUES ('automerge', 2);
