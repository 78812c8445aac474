-- The full-text index reads a page's readable text (`search_text`, written by the app with searchTextOf in
-- src/retrieval/search-text.ts) instead of its markdown: no `Related:`/`Source:` lines, links read as their
-- words, no repeated extractive lead. Concept pages move to an index of their own (`concept_fts`): their
-- sentences are copies of source sentences, and in the same index they shifted BM25's statistics of the
-- source pages (eval-context: ClapNQ nDCG@10 0.958 -> 0.963). Page ids and vectors are untouched.
ALTER TABLE `pages` ADD COLUMN `search_text` text;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `pages_fts_insert`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `pages_fts_delete`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `pages_fts_update`;
--> statement-breakpoint
-- searchTextOf in SQL (no regular expressions): drop `Related: [[` and `Source: <` lines, then replace the
-- links one at a time (`[[slug|Text]]` -> Text, `[[slug]]` -> slug with spaces); an unclosed `[[` is dropped.
UPDATE `pages` SET `search_text` = trim((
  WITH RECURSIVE r(s, n) AS (
    SELECT pages.markdown, 0
    UNION ALL
    SELECT CASE
      WHEN substr(s, 1, 11) = 'Related: [[' OR substr(s, 1, 9) = 'Source: <'
        THEN coalesce(substr(s, nullif(instr(s, char(10)), 0) + 1), '')
      WHEN instr(s, char(10) || 'Related: [[') > 0
        THEN substr(s, 1, instr(s, char(10) || 'Related: [[') - 1)
          || coalesce(substr(substr(s, instr(s, char(10) || 'Related: [[') + 1), nullif(instr(substr(s, instr(s, char(10) || 'Related: [[') + 1), char(10)), 0)), '')
      WHEN instr(s, char(10) || 'Source: <') > 0
        THEN substr(s, 1, instr(s, char(10) || 'Source: <') - 1)
          || coalesce(substr(substr(s, instr(s, char(10) || 'Source: <') + 1), nullif(instr(substr(s, instr(s, char(10) || 'Source: <') + 1), char(10)), 0)), '')
      WHEN instr(substr(s, instr(s, '[[') + 2), ']]') > 0
        THEN substr(s, 1, instr(s, '[[') - 1)
          || (SELECT CASE WHEN instr(inner, '|') > 0 THEN substr(inner, instr(inner, '|') + 1) ELSE replace(inner, '-', ' ') END
              FROM (SELECT substr(s, instr(s, '[[') + 2, instr(substr(s, instr(s, '[[') + 2), ']]') - 1) AS inner))
          || substr(s, instr(s, '[[') + 1 + instr(substr(s, instr(s, '[[') + 2), ']]') + 2)
      ELSE substr(s, 1, instr(s, '[[') - 1) || substr(s, instr(s, '[[') + 2)
    END, n + 1
    FROM r
    WHERE n < 5000 AND (substr(s, 1, 11) = 'Related: [[' OR substr(s, 1, 9) = 'Source: <'
      OR instr(s, char(10) || 'Related: [[') > 0 OR instr(s, char(10) || 'Source: <') > 0 OR instr(s, '[[') > 0)
  )
  SELECT s FROM r ORDER BY n DESC LIMIT 1
), ' ' || char(9) || char(10) || char(13));
--> statement-breakpoint
-- The extractive lead: a first paragraph the rest of the page repeats.
UPDATE `pages` SET `search_text` = ltrim(substr(search_text, instr(search_text, char(10) || char(10)) + 2), ' ' || char(9) || char(10) || char(13))
WHERE instr(search_text, char(10) || char(10)) > 1
  AND instr(substr(search_text, instr(search_text, char(10) || char(10)) + 2), substr(search_text, 1, instr(search_text, char(10) || char(10)) - 1)) > 0;
--> statement-breakpoint
CREATE VIRTUAL TABLE `concept_fts` USING fts5(title, body, content='pages', content_rowid='id', tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
-- Whoever changes a page's words writes its search_text (a null one indexes the markdown). Updates that keep
-- the title, the readable text and the kind (a link added around a phrase, the Related line) skip the index.
CREATE TRIGGER `pages_fts_insert` AFTER INSERT ON `pages` WHEN new.kind != 'concept' BEGIN
  INSERT INTO pages_fts(rowid, title, body) VALUES (new.id, new.title, coalesce(new.search_text, new.markdown));
END;
--> statement-breakpoint
CREATE TRIGGER `concept_fts_insert` AFTER INSERT ON `pages` WHEN new.kind = 'concept' BEGIN
  INSERT INTO concept_fts(rowid, title, body) VALUES (new.id, new.title, coalesce(new.search_text, new.markdown));
END;
--> statement-breakpoint
CREATE TRIGGER `pages_fts_delete` AFTER DELETE ON `pages` WHEN old.kind != 'concept' BEGIN
  INSERT INTO pages_fts(pages_fts, rowid, title, body) VALUES ('delete', old.id, old.title, coalesce(old.search_text, old.markdown));
END;
--> statement-breakpoint
CREATE TRIGGER `concept_fts_delete` AFTER DELETE ON `pages` WHEN old.kind = 'concept' BEGIN
  INSERT INTO concept_fts(concept_fts, rowid, title, body) VALUES ('delete', old.id, old.title, coalesce(old.search_text, old.markdown));
END;
--> statement-breakpoint
CREATE TRIGGER `pages_fts_update` AFTER UPDATE OF title, markdown, search_text, kind ON `pages`
WHEN old.title IS NOT new.title OR old.kind IS NOT new.kind
  OR coalesce(old.search_text, old.markdown) IS NOT coalesce(new.search_text, new.markdown)
BEGIN
  INSERT INTO pages_fts(pages_fts, rowid, title, body) SELECT 'delete', old.id, old.title, coalesce(old.search_text, old.markdown) WHERE old.kind != 'concept';
  INSERT INTO concept_fts(concept_fts, rowid, title, body) SELECT 'delete', old.id, old.title, coalesce(old.search_text, old.markdown) WHERE old.kind = 'concept';
  INSERT INTO pages_fts(rowid, title, body) SELECT new.id, new.title, coalesce(new.search_text, new.markdown) WHERE new.kind != 'concept';
  INSERT INTO concept_fts(rowid, title, body) SELECT new.id, new.title, coalesce(new.search_text, new.markdown) WHERE new.kind = 'concept';
END;
--> statement-breakpoint
INSERT INTO pages_fts(pages_fts) VALUES ('delete-all');
--> statement-breakpoint
INSERT INTO pages_fts(rowid, title, body) SELECT id, title, coalesce(search_text, markdown) FROM pages WHERE kind != 'concept';
--> statement-breakpoint
INSERT INTO concept_fts(rowid, title, body) SELECT id, title, coalesce(search_text, markdown) FROM pages WHERE kind = 'concept';
