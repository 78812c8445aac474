// Sources of a brain: add (idempotent by externalId), list, read, delete, re-process. Every write that
// makes work enqueues its job in the same batch, so no source is ever left without its job.
import { and, asc, eq, sql } from "drizzle-orm";
import type { RootDb as Db } from "../../db/client";
import { jobs, sources } from "../../db/schema";
import { AppError, notFound } from "../../lib/errors";
import { newTimeOrderedId } from "../../lib/secrets";
import { enqueueStatement } from "../../queue";
import { runBatch, stmt } from "../../db/plain";
import { conceptCleanupStatements } from "../../concepts";
import { INGEST_JOB } from "../../queue/kinds";
import { eventStatements } from "../../queue/events";

export type { Source } from "../../db/schema";
import type { Source } from "../../db/schema";
export type SourceType = Source["type"];

export interface SourceView {
  id: string;
  type: SourceType;
  title: string;
  status: Source["status"];
  externalId: string | null;
  url: string | null;
  filename: string | null;
  contentType: string | null;
  size: number | null;
  pageCount: number;
  error: string | null;
  /** The connector that keeps this source in sync (modules/connectors); null for one added by hand. */
  connectorId: string | null;
  createdAt: string;
  updatedAt: string;
}

export function sourceView(s: Source): SourceView {
  return {
    id: s.id,
    type: s.type,
    title: s.title,
    status: s.status,
    externalId: s.externalId,
    url: s.url,
    filename: s.filename,
    contentType: s.contentType,
    size: s.size,
    pageCount: s.pageCount,
    error: s.error,
    connectorId: s.connectorId,
    createdAt: new Date(s.createdAt).toISOString(),
    updatedAt: new Date(s.updatedAt).toISOString(),
  };
}

/** What a caller adds; both wire surfaces map onto this. */
export type NewSource =
  | { type: "link"; url: string; title?: string; externalId?: string }
  | { type: "text"; title: string; content: string; sourceUrl?: string; externalId?: string }
  | { type: "note"; title: string; content: string; externalId?: string };

export interface Deps {
  db: Db;
  maxAttempts: number;
  /** Nudges the job loop so work starts now rather than at the next poll. */
  wake(): void;
}

/** The columns a new source body sets (shared by single and batch adds). */
export function sourceFields(input: NewSource) {
  switch (input.type) {
    case "link":
      return { title: input.title?.trim() || input.url, url: input.url, content: null };
    case "text":
      return { title: input.title.trim(), url: input.sourceUrl ?? null, content: input.content };
    case "note":
      return { title: input.title.trim(), url: null, content: input.content };
  }
}

const ingestJob = (deps: Deps, sourceId: string) => ({
  kind: INGEST_JOB,
  subjectId: sourceId,
  maxAttempts: deps.maxAttempts,
});

/**
 * Adds a source. With an externalId already used in this brain, returns that source (created: false);
 * when the body is of the same kind and its content changed, the source is updated and re-processed. Safe under concurrent repeats: the
 * unique (brain, externalId) index decides, and `changes()` ties each job to the write that needs it.
 */
export async function addSource(deps: Deps, brainId: string, input: NewSource): Promise<{ source: Source; created: boolean }> {
  const { db } = deps;
  const f = sourceFields(input);
  const id = newTimeOrderedId("src");
  const [, insertedJob] = await runBatch(db, [
    db.run(sql`INSERT INTO ${sources} (id, brain_id, type, title, url, content, external_id)
      VALUES (${id}, ${brainId}, ${input.type}, ${f.title}, ${f.url}, ${f.content}, ${input.externalId ?? null})
      ON CONFLICT (brain_id, external_id) DO NOTHING`),
    enqueueStatement(ingestJob(deps, id), stmt("changes() > 0")),
  ]);
  if (insertedJob!.rowsAffected > 0) {
    deps.wake();
    return { source: (await getSource(db, brainId, id))!, created: true };
  }
  // The externalId exists: refresh it when the caller sent different content.
  const existing = await db.query.sources.findFirst({
    where: and(eq(sources.brainId, brainId), eq(sources.externalId, input.externalId!)),
  });
  if (!existing) throw new AppError("conflict", "The source changed while it was being added; retry");
  // Seed rule 1: an existing externalId returns the existing source whatever the body; a body of another
  // kind cannot update it (a link is not a new version of a text), so it is returned as it is.
  if (existing.type !== input.type) return { source: existing, created: false };
  const [, requeued] = await runBatch(db, [
    db.run(sql`UPDATE ${sources} SET title = ${f.title}, url = ${f.url}, content = ${f.content},
        revision = revision + 1, status = 'pending', error = NULL, updated_at = ${Date.now()}
      WHERE id = ${existing.id} AND (title IS NOT ${f.title} OR url IS NOT ${f.url} OR content IS NOT ${f.content})`),
    enqueueStatement(ingestJob(deps, existing.id), stmt("changes() > 0")),
  ]);
  if (requeued!.rowsAffected > 0) deps.wake();
  return { source: (await getSource(db, brainId, existing.id))!, created: false };
}

export async function getSource(db: Db, brainId: string, sourceId: string): Promise<Source | undefined> {
  return db.query.sources.findFirst({ where: and(eq(sources.id, sourceId), eq(sources.brainId, brainId)) });
}

export async function requireSource(db: Db, brainId: string, sourceId: string): Promise<Source> {
  const source = await getSource(db, brainId, sourceId);
  if (!source) throw notFound("Source");
  return source;
}

export async function listSources(db: Db, brainId: string): Promise<Source[]> {
  return db.query.sources.findMany({ where: eq(sources.brainId, brainId), orderBy: [asc(sources.createdAt), asc(sources.id)] });
}

/** Deletes a source with its pages and vectors (cascade) and its pending jobs; returns it for blob cleanup. */
export async function deleteSource(db: Db, brainId: string, sourceId: string): Promise<Source> {
  const source = await requireSource(db, brainId, sourceId);
  // Announced only when this batch is the one that deletes it (a second, racing delete announces nothing).
  const removed = await eventStatements(db, [
    { type: "source.removed", brainId, data: { sourceId, title: source.title ?? null, externalId: source.externalId ?? null }, guard: stmt("EXISTS (SELECT 1 FROM sources WHERE id = ?)", sourceId), key: `source.removed:${sourceId}` },
  ]);
  await runBatch(db, [
    db.delete(jobs).where(and(eq(jobs.subjectId, sourceId), eq(jobs.status, "queued"))),
    ...conceptCleanupStatements(brainId, sourceId), // its concept pages are refreshed by a job
    ...removed,
    db.delete(sources).where(eq(sources.id, sourceId)),
  ]);
  return source;
}

/** Runs the pipeline again on the source's current content. */
export async function reprocessSource(deps: Deps, brainId: string, sourceId: string): Promise<Source> {
  const { db } = deps;
  const source = await requireSource(db, brainId, sourceId);
  if (source.type === "file" && !source.uploadedAt)
    throw new AppError("conflict", "The file has not been uploaded yet", { field: "sourceId" });
  await runBatch(db, [
    db.run(sql`UPDATE ${sources} SET revision = revision + 1, status = 'pending', error = NULL, updated_at = ${Date.now()}
      WHERE id = ${sourceId}`),
    enqueueStatement(ingestJob(deps, sourceId)),
  ]);
  deps.wake();
  return (await getSource(db, brainId, sourceId))!;
}
