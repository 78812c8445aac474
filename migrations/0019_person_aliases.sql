-- A later source's bare word joins a name only when the name is a person's and the word the surname
-- (src/concepts/keys.ts personSurnameAlias); before, any name of two or three capitalized words claimed its
-- last word, and "Blood", "Age" or "Australia" anywhere in a brain joined True Blood, Jazz Age or Ansett
-- Australia. Those claims go (every last-word alias of a two- or three-word concept: the people's among them
-- are recorded again by the next source naming the full name); organizations' short names ("northwind" →
-- northwind-coffee) and a concept's own key stay. Pages already written keep their mentions until their
-- sources are processed again.
DELETE FROM `concept_aliases`
WHERE `alias` != `concept` AND `concept` != ''
  AND substr(`concept`, -length(`alias`) - 1) = '-' || `alias`
  AND length(`concept`) - length(replace(`concept`, '-', '')) <= 2;
