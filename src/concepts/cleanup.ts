// When a source is deleted its mentions go with it (foreign key): the concept pages they fed are marked
// dirty and a refresh job is queued, in the same batch as the delete, so a kill -9 loses neither.
import { sql } from "drizzle-orm";
import type { RootDb } from "../db/client";
import { enqueueStatement } from "../jobs/queue";
import { forgetSeenStatement, WIKI_REFRESH_JOB } from "./lone";

export { WIKI_REFRESH_JOB };

export function conceptCleanupStatements(db: RootDb, brainId: string, sourceId: string) {
  return [
    // Its lone concepts (lone.ts) leave concept_seen before its concept_lone row goes with it.
    forgetSeenStatement(db, brainId, sourceId),
    db.run(sql`INSERT OR IGNORE INTO concept_dirty (brain_id, concept)
      SELECT DISTINCT m.brain_id, m.concept FROM concept_mentions m
      WHERE m.source_id = ${sourceId}
        AND EXISTS (SELECT 1 FROM pages p WHERE p.brain_id = m.brain_id AND p.slug = m.concept AND p.kind = 'concept')`),
    enqueueStatement(
      db,
      { kind: WIKI_REFRESH_JOB, subjectId: brainId, maxAttempts: 5 },
      sql`NOT EXISTS (SELECT 1 FROM jobs WHERE kind = ${WIKI_REFRESH_JOB} AND subject_id = ${brainId} AND status = 'queued')`,
    ),
  ];
}
