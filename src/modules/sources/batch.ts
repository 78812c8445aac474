// Bulk add: up to MAX_BATCH sources in ONE transaction. Each item is validated on its own (a bad item gets
// its own error, the others are stored); externalId keeps every item idempotent, as for single adds: a new
// id inserts, an unchanged one answers the existing source, a changed one updates it and re-processes it.
import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import { jobs, sources } from "../../db/schema";
import { AppError } from "../../lib/errors";
import { newTimeOrderedId } from "../../lib/secrets";
import { INGEST_JOB } from "../../queue/kinds";
import { sourceFields, type Deps, type NewSource, type Source } from "./service";

export const MAX_BATCH = 1000;
/** Rows per multi-row INSERT: 9 parameters each, well under SQLite's 32,766. */
const INSERT_ROWS = 500;

export type BatchItemResult =
  | { index: number; status: 200 | 201; created: boolean; source: Source }
  | { index: number; status: number; error: { code: string; message: string; field?: string } };

export interface BatchSummary {
  results: BatchItemResult[];
  created: number;
  updated: number;
  unchanged: number;
  failed: number;
}

const errorOf = (index: number, e: unknown): BatchItemResult => {
  if (e instanceof AppError) {
    const field = typeof e.details.field === "string" ? e.details.field : undefined;
    return { index, status: e.code === "conflict" ? 409 : 422, error: { code: e.code, message: e.message, ...(field ? { field } : {}) } };
  }
  throw e;
};

/**
 * `items` are raw wire bodies; `normalize` maps one onto a NewSource or throws the AppError that becomes
 * that item's result. The whole batch is refused (nothing stored) only when it is over MAX_BATCH or empty.
 */
export async function addSourcesBatch(deps: Deps, brainId: string, items: unknown[], normalize: (item: unknown) => NewSource): Promise<BatchSummary> {
  if (items.length === 0) throw new AppError("invalid_request", "sources must hold at least one source", { field: "sources" });
  if (items.length > MAX_BATCH)
    throw new AppError("invalid_request", `A batch holds at most ${MAX_BATCH} sources; got ${items.length}. Nothing was stored.`, {
      field: "sources",
      limit: MAX_BATCH,
    });
  const { db } = deps;
  const results: (BatchItemResult | undefined)[] = new Array(items.length);
  const valid: { index: number; input: NewSource }[] = [];
  const firstWithId = new Map<string, number>();
  items.forEach((item, index) => {
    try {
      if (typeof item !== "object" || item === null || Array.isArray(item))
        throw new AppError("invalid_request", "Each source must be a JSON object", { field: `sources[${index}]` });
      const input = normalize(item);
      const externalId = input.externalId;
      if (externalId !== undefined) {
        if (firstWithId.has(externalId))
          throw new AppError("invalid_request", `externalId "${externalId}" repeats item ${firstWithId.get(externalId)} of this batch`, { field: "externalId" });
        firstWithId.set(externalId, index);
      }
      valid.push({ index, input });
    } catch (e) {
      results[index] = errorOf(index, e);
    }
  });

  // Sources these externalIds already name in the brain: unchanged ones need no write at all.
  const externalIds = [...firstWithId.keys()];
  const existing = new Map<string, Source>();
  for (let i = 0; i < externalIds.length; i += 500) {
    const rows = await db.query.sources.findMany({
      where: and(eq(sources.brainId, brainId), inArray(sources.externalId, externalIds.slice(i, i + 500))),
    });
    for (const row of rows) existing.set(row.externalId!, row);
  }

  type Planned = { index: number; id: string; kind: "insert" | "update" | "same"; first: number };
  const planned: Planned[] = [];
  const statements: unknown[] = [];
  const inserts: SQL[] = [];
  const insertIdValues: string[] = [];
  const now = Date.now();
  const enqueue = (subjectId: string) =>
    db.run(sql`INSERT INTO ${jobs} (kind, subject_id, payload, max_attempts, run_after)
      SELECT ${INGEST_JOB}, ${subjectId}, '{}', ${deps.maxAttempts}, ${now} WHERE changes() > 0`);
  for (const { index, input } of valid) {
    const f = sourceFields(input);
    const old = input.externalId !== undefined ? existing.get(input.externalId) : undefined;
    // Seed rule 1, as for a single add: an existing externalId answers the existing source, whatever the
    // body; a body of another kind does not update it.
    if (old && (old.type !== input.type || (old.title === f.title && old.url === f.url && old.content === f.content))) {
      planned.push({ index, id: old.id, kind: "same", first: -1 });
      continue;
    }
    const first = statements.length;
    if (old) {
      planned.push({ index, id: old.id, kind: "update", first });
      statements.push(
        db.run(sql`UPDATE ${sources} SET title = ${f.title}, url = ${f.url}, content = ${f.content},
            revision = revision + 1, status = 'pending', error = NULL, updated_at = ${now}
          WHERE id = ${old.id} AND (title IS NOT ${f.title} OR url IS NOT ${f.url} OR content IS NOT ${f.content})`),
        enqueue(old.id),
      );
    } else {
      const id = newTimeOrderedId("src");
      planned.push({ index, id, kind: "insert", first: -1 });
      inserts.push(sql`(${id}, ${brainId}, ${input.type}, ${f.title}, ${f.url}, ${f.content}, ${input.externalId ?? null}, ${now}, ${now})`);
      insertIdValues.push(id);
    }
  }
  // New sources go in as multi-row INSERTs (a few statements instead of two per item: 1,000 items took ~1 s
  // of blocking driver time one by one), each followed by the jobs of the rows it really inserted.
  for (let i = 0; i < inserts.length; i += INSERT_ROWS) {
    statements.push(
      db.run(sql`INSERT INTO ${sources} (id, brain_id, type, title, url, content, external_id, created_at, updated_at)
        VALUES ${sql.join(inserts.slice(i, i + INSERT_ROWS), sql`, `)} ON CONFLICT (brain_id, external_id) DO NOTHING`),
      // The jobs in the request's order (json_each's), not the ids' (random within a millisecond): a batch's
      // sources are drafted in job order, so two sources of one title get their slugs ("x", "x-2") in the
      // order they were sent, the same on every run.
      db.run(sql`INSERT INTO ${jobs} (kind, subject_id, payload, max_attempts, run_after)
        SELECT ${INGEST_JOB}, s.id, '{}', ${deps.maxAttempts}, ${now} FROM json_each(${JSON.stringify(insertIdValues.slice(i, i + INSERT_ROWS))}) j
        CROSS JOIN ${sources} s ON s.id = j.value ORDER BY j.key`),
    );
  }
  // One transaction: the sources and their jobs are stored together or not at all.
  const outcome = statements.length
    ? ((await db.batch(statements as unknown as Parameters<typeof db.batch>[0])) as unknown as { rowsAffected: number }[])
    : [];
  if (statements.length) deps.wake();

  const ids = planned.map((p) => p.id);
  const stored = new Map<string, Source>();
  const load = async (ids: string[]) => {
    for (let i = 0; i < ids.length; i += 500)
      for (const row of await db.query.sources.findMany({ where: inArray(sources.id, ids.slice(i, i + 500)) })) stored.set(row.id, row);
  };
  await load(ids);
  // An insert that lost a race with a concurrent add of the same externalId answers that source instead.
  const lost = planned.filter((p) => p.kind === "insert" && !stored.has(p.id));
  const lostIds = new Map<string, string>();
  for (const p of lost) {
    const externalId = (valid.find((v) => v.index === p.index)!.input.externalId)!;
    const row = await db.query.sources.findFirst({ where: and(eq(sources.brainId, brainId), eq(sources.externalId, externalId)) });
    if (row) {
      lostIds.set(p.id, row.id);
      stored.set(row.id, row);
    }
  }
  const summary = { created: 0, updated: 0, unchanged: 0, failed: 0 };
  for (const p of planned) {
    const source = stored.get(lostIds.get(p.id) ?? p.id);
    if (!source) {
      results[p.index] = { index: p.index, status: 409, error: { code: "conflict", message: "The source changed while it was being added; retry" } };
      continue;
    }
    const created = p.kind === "insert" && !lostIds.has(p.id);
    if (created) summary.created++;
    else if (p.kind === "update" && outcome[p.first]!.rowsAffected > 0) summary.updated++;
    else summary.unchanged++;
    results[p.index] = { index: p.index, status: created ? 201 : 200, created, source };
  }
  const done = results as BatchItemResult[];
  summary.failed = done.filter((r) => "error" in r).length;
  return { results: done, ...summary };
}
