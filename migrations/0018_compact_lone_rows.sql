-- Lone rows (migration 0017) stored each mention with its whole sentence and page slug: ~35 mentions of
-- ~14 sentences, 9.8 KB a source on the import bench (concept_lone was 203 MiB of a 450 MiB file at 20k
-- sources). Now a row keeps its sentences once, `sentences` = [[page slug, sentence], ...], and `mentions` =
-- [[concept, surface or null (the concept's words), sentence index, weight], ...].
ALTER TABLE `concept_lone` ADD `sentences` text DEFAULT '[]' NOT NULL;
--> statement-breakpoint
UPDATE `concept_lone` SET
  `sentences` = (SELECT json_group_array(json_array(value ->> '$.p', value ->> '$.t') ORDER BY key) FROM json_each(concept_lone.mentions)),
  `mentions` = (SELECT json_group_array(json_array(value ->> '$.c', value ->> '$.s', key, value ->> '$.w') ORDER BY key) FROM json_each(concept_lone.mentions))
WHERE json_type(`mentions`, '$[0]') = 'object';
