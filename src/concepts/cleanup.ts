// When a source is deleted its mentions go with it (foreign key): the concept pages they fed are marked
// dirty and a refresh job is queued, in the same batch as the delete, so a kill -9 loses neither.
import { enqueueStatement } from "../queue";
import { ALWAYS, type Fragment, type Statement } from "../db/plain";
import { forgetSeenStatement } from "./lone";
import { WIKI_REFRESH_JOB } from "../queue/kinds";

export { WIKI_REFRESH_JOB };

/** The concept pages a source's mention rows feed become dirty (before the rows are replaced or deleted). */
export const dirtyPagesOfStatement = (sourceId: string, guard: Fragment = ALWAYS): Statement => ({
  sql: `INSERT OR IGNORE INTO concept_dirty (brain_id, concept)
    SELECT DISTINCT m.brain_id, m.concept FROM concept_mentions m
    WHERE m.source_id = ? AND ${guard.sql}
      AND EXISTS (SELECT 1 FROM pages p WHERE p.brain_id = m.brain_id AND p.slug = m.concept AND p.kind = 'concept')`,
  args: [sourceId, ...guard.args],
});

/**
 * A concept other sources name whose page was one of this source's pages (a source titled "Marie Curie": no
 * concept page is made for its slug) is dirty: once the source goes, the concept gets its own page again.
 */
const dirtyNamesakesStatement = (sourceId: string): Statement => ({
  sql: `INSERT OR IGNORE INTO concept_dirty (brain_id, concept)
    SELECT p.brain_id, p.slug FROM pages p
    WHERE p.source_id = ?1 AND EXISTS (SELECT 1 FROM concept_mentions m WHERE m.brain_id = p.brain_id AND m.concept = p.slug AND m.source_id != ?1)`,
  args: [sourceId],
});

export function conceptCleanupStatements(brainId: string, sourceId: string): Statement[] {
  return [
    // Its lone concepts (lone.ts) leave concept_seen before its concept_lone row goes with it.
    forgetSeenStatement(brainId, sourceId),
    dirtyPagesOfStatement(sourceId),
    dirtyNamesakesStatement(sourceId),
    enqueueStatement(
      { kind: WIKI_REFRESH_JOB, subjectId: brainId, maxAttempts: 5 },
      { sql: "NOT EXISTS (SELECT 1 FROM jobs WHERE kind = ? AND subject_id = ? AND status = 'queued')", args: [WIKI_REFRESH_JOB, brainId] },
    ),
  ];
}
