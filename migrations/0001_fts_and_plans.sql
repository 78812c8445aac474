-- Full-text index over wiki pages (DESIGN.md "Full text"): title and body apart so the title can weigh more,
-- porter stemming; external content kept current by triggers.
CREATE VIRTUAL TABLE `pages_fts` USING fts5(title, body, content='pages', content_rowid='id', tokenize='porter unicode61 remove_diacritics 2');
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
INSERT INTO `plans` (id, name, metering, brain_sets) VALUES
  ('free', 'Free', 'bank', 0),
  ('pro', 'Pro', 'quota', 1),
  ('team', 'Team', 'quota', 1);
