-- Numbered labels of documents are no concepts (src/concepts/keys.ts): "Step 1", "Version 2", "Appendix B" or
-- "Table 2" in a set of manuals made concept pages "Step", "Version", "Appendix B", "Table 2". Their mention
-- rows go and the concepts are marked dirty with a refresh job for their brain, in this one migration: the
-- refresh removes pages left with no mentions (an owner's edited page stays, marked as its sources changed).
-- A label is the word alone, or the word and a mark (digits, one letter, a roman numeral: "appendix-b",
-- "figure-4-1", "part-ii").
CREATE TABLE `label_concepts_0020` AS
WITH labels(word) AS (SELECT value FROM json_each('["step","steps","version","versions","phase","stage","level","item","items","exhibit","annex","volume","vol","issue","lesson","module","task","exercise","question","option","slide","clause","paragraph","line","row","column","equation","listing","fig","introduction","summary","conclusion","chapter","section","figure","table","abstract","overview","contents","appendix","references","reference","note","notes","example","examples","page","pages","part","parts","source","sources","index","preface","foreword"]'))
SELECT DISTINCT m.brain_id, m.concept FROM concept_mentions m CROSS JOIN labels l
WHERE m.concept = l.word
  OR (substr(m.concept, 1, length(l.word) + 1) = l.word || '-' AND (
    (substr(m.concept, length(l.word) + 2) GLOB '[0-9]*' AND substr(m.concept, length(l.word) + 2) NOT GLOB '*[^0-9a-z-]*' AND substr(m.concept, length(l.word) + 2) NOT GLOB '*[a-z][a-z]*')
    OR length(substr(m.concept, length(l.word) + 2)) = 1
    OR substr(m.concept, length(l.word) + 2) NOT GLOB '*[^ivxlc]*'));
--> statement-breakpoint
INSERT OR IGNORE INTO `concept_dirty` (`brain_id`, `concept`) SELECT `brain_id`, `concept` FROM `label_concepts_0020`;
--> statement-breakpoint
DELETE FROM `concept_mentions` WHERE EXISTS (SELECT 1 FROM `label_concepts_0020` c WHERE c.brain_id = concept_mentions.brain_id AND c.concept = concept_mentions.concept);
--> statement-breakpoint
INSERT INTO `jobs` (`kind`, `subject_id`, `payload`, `max_attempts`)
SELECT DISTINCT 'wiki-refresh', c.brain_id, '{}', 5 FROM `label_concepts_0020` c
WHERE NOT EXISTS (SELECT 1 FROM `jobs` j WHERE j.kind = 'wiki-refresh' AND j.subject_id = c.brain_id AND j.status = 'queued');
--> statement-breakpoint
DROP TABLE `label_concepts_0020`;
