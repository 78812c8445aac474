// Page editing by the brain's owner: saved with a new revision, links re-derived, the page re-indexed at
// once (full text by trigger, its vector here). An edited page is never overwritten by its source again.
import { sql } from "drizzle-orm";
import type { Embedder } from "../../ai/embedder";
import { RemoteEmbedderError } from "../../ai/remote-embedder";
import { scheduleEmbedding } from "../../jobs/embed-pages";
import type { RootDb } from "../../db/client";
import { pageLinkStatements, runBatch } from "../../concepts";
import { stmt } from "../../db/plain";
import { AppError, invalid } from "../../lib/errors";
import { searchTextOf } from "../../retrieval/search-text";
import { findPageRow } from "./service";
import { eventStatements } from "../../queue/events";

/** Markdown accepted in one edit (characters); more is 413. */
export const MAX_EDIT_MARKDOWN_CHARS = 200_000;
const MAX_TITLE_CHARS = 300;
const ATTEMPTS = 3;

export interface PageEdit {
  markdown: string;
  title?: string;
  baseRevision?: number;
}

export interface RevisionView {
  revision: number;
  title: string;
  markdown: string;
  createdAt: string;
  author: "source" | "owner";
}

export function checkEdit(edit: PageEdit): void {
  if (typeof edit.markdown !== "string") throw invalid("markdown", "markdown must be a string");
  if (edit.markdown.length > MAX_EDIT_MARKDOWN_CHARS)
    throw new AppError("payload_too_large", `markdown is over ${MAX_EDIT_MARKDOWN_CHARS} characters`, { field: "markdown" });
  if (!edit.markdown.trim()) throw invalid("markdown", "markdown must not be empty");
  if (edit.title !== undefined && (!edit.title.trim() || edit.title.length > MAX_TITLE_CHARS))
    throw invalid("title", `title must be 1–${MAX_TITLE_CHARS} characters`);
}

export async function updatePage(db: RootDb, embedder: Embedder | null, brainId: string, slug: string, edit: PageEdit): Promise<void> {
  checkEdit(edit);
  for (let attempt = 0; ; attempt++) {
    // Read by slug each time: a reprocess may have replaced the (unedited) page meanwhile; the edit then
    // lands on its successor, and the reprocess never touches an edited page.
    const row = await findPageRow(db, brainId, slug);
    if (edit.baseRevision !== undefined && edit.baseRevision !== row.revision)
      throw new AppError("conflict", `The page is at revision ${row.revision}, not ${edit.baseRevision}`, { revision: row.revision });
    const title = edit.title?.trim() ?? row.title;
    // Saving what the page already says changes nothing: no revision, and a source's page stays the source's.
    if (edit.markdown === row.markdown && title === row.title) return;
    const now = Date.now();
    const changed = await eventStatements(db, [
      {
        type: "page.changed",
        brainId,
        data: { pageId: row.id, slug: row.slug, sourceId: row.sourceId ?? null, revision: row.revision + 1, reason: "edit" },
        guard: stmt("EXISTS (SELECT 1 FROM pages WHERE id = ? AND revision = ? AND updated_at = ?)", row.id, row.revision + 1, now),
        key: `page.changed:${row.id}:${row.revision + 1}`,
      },
    ]);
    const results = await runBatch(db, [
      db.run(sql`INSERT OR IGNORE INTO page_revisions (page_id, revision, title, markdown, author, created_at)
        VALUES (${row.id}, ${row.revision}, ${row.title}, ${row.markdown}, ${row.edited ? "owner" : "source"}, ${row.updatedAt})`),
      db.run(sql`UPDATE pages SET markdown = ${edit.markdown}, search_text = ${searchTextOf(edit.markdown)}, title = ${title}, edited = 1, revision = revision + 1, updated_at = ${now}
        WHERE id = ${row.id} AND revision = ${row.revision}`),
      db.run(sql`INSERT OR IGNORE INTO page_revisions (page_id, revision, title, markdown, author, created_at)
        SELECT id, revision, title, markdown, 'owner', ${now} FROM pages WHERE id = ${row.id} AND revision = ${row.revision + 1} AND updated_at = ${now}`),
      ...pageLinkStatements(brainId, stmt("SELECT id FROM pages WHERE id = ? AND updated_at = ?", row.id, now), edit.markdown),
      ...changed,
    ]);
    if ((results[1] as { rowsAffected: number }).rowsAffected === 1) {
      await reembed(db, embedder, row.id, title, edit.markdown);
      return;
    }
    if (attempt + 1 >= ATTEMPTS) throw new AppError("conflict", "The page kept changing while it was saved; try again");
  }
}

async function reembed(db: RootDb, embedder: Embedder | null, pageId: number, title: string, markdown: string) {
  if (!embedder) return;
  const vector = await embedder.embed([`${title}\n\n${markdown}`]).then(
    ([v]) => v,
    async (e: unknown) => {
      if (!(e instanceof RemoteEmbedderError)) throw e;
      // The edit is saved; the old text's vector must not answer for the new text: gone now, redone later.
      await db.run(sql`DELETE FROM page_vectors WHERE page_id = ${pageId} AND model = ${embedder.model}`);
      await scheduleEmbedding(db, embedder.model);
      return undefined;
    },
  );
  if (!vector) return;
  await db.run(sql`INSERT INTO page_vectors (page_id, brain_id, model, embedding)
    SELECT id, brain_id, ${embedder.model}, vector32(${JSON.stringify(Array.from(vector))}) FROM pages WHERE id = ${pageId}
    ON CONFLICT (page_id, model) DO UPDATE SET embedding = excluded.embedding`);
}

/** Saved states, newest first; the current state is always included. */
export async function listRevisions(db: RootDb, brainId: string, slug: string): Promise<RevisionView[]> {
  const row = await findPageRow(db, brainId, slug);
  const rows = await db.all<{ revision: number; title: string; markdown: string; author: "source" | "owner"; created_at: number }>(sql`
    SELECT revision, title, markdown, author, created_at FROM page_revisions WHERE page_id = ${row.id} ORDER BY revision DESC LIMIT 100`);
  const out = rows.map((r) => ({ revision: r.revision, title: r.title, markdown: r.markdown, author: r.author, createdAt: new Date(r.created_at).toISOString() }));
  if (!out.some((r) => r.revision === row.revision)) {
    out.unshift({ revision: row.revision, title: row.title, markdown: row.markdown, author: row.edited ? "owner" : "source", createdAt: new Date(row.updatedAt).toISOString() });
  }
  return out;
}
