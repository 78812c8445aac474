// Imports a vault into a brain: every Markdown note becomes a note source and its page, written directly
// with the title and slug the vault gives (readVault), so titles and links arrive exactly: notes are
// verbatim pages (no synthesis, no concept pages of their own), and a page's links are its `[[wikilinks]]`.
// Vectors follow in the background (the embed-pages job) when an embedding model is configured.
import { eq } from "drizzle-orm";
import type { RootDb } from "../../db/client";
import { runBatch, stmt, type Statement } from "../../db/plain";
import { pages } from "../../db/schema";
import { formatBytes } from "../../ingest/budget";
import { decodeText } from "../../ingest/decode-text";
import { IngestError } from "../../ingest/errors";
import { unzipBounded } from "../../ingest/zip-bounded";
import { pageLinkStatements } from "../../links/page-links";
import { isUniqueViolation } from "../../lib/db-errors";
import { AppError } from "../../lib/errors";
import { newTimeOrderedId } from "../../lib/secrets";
import { searchTextOf } from "../../retrieval/search-text";
import { checkEntryName, isNoteEntry, readVault, type VaultNote } from "./read-vault";

export interface VaultLimits {
  maxNotes: number;
  maxExpandedBytes: number;
}

export interface VaultImportResult {
  imported: number;
  /** Zip entries that are not notes (attachments, settings, the export's own files): not imported. */
  skipped: number;
  pages: Array<{ slug: string; title: string; path: string }>;
}

/** Notes written per database batch (each a source, its page and its link rows). */
const WRITE_BATCH = 200;
/** The most one note may inflate to: a page is read whole by the wiki and the answers. */
export const MAX_NOTE_BYTES = 5 * 1024 * 1024;

/** The vault zip's notes, inflated within the limits; 422 for a zip bomb, a damaged zip or an unsafe name. */
export function notesOfZip(bytes: Uint8Array, limits: VaultLimits): { files: Array<{ path: string; text: string }>; skipped: number } {
  let skipped = 0;
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipBounded(bytes, { maxExpandedBytes: limits.maxExpandedBytes, maxPartBytes: Math.min(MAX_NOTE_BYTES, limits.maxExpandedBytes), maxEntries: limits.maxNotes * 4 + 1000 }, (name) => {
      checkEntryName(name);
      if (isNoteEntry(name)) return true;
      skipped++;
      return false;
    });
  } catch (e) {
    if (e instanceof IngestError) throw new AppError("invalid_request", `The vault could not be read: ${e.message}`, { reason: e.code });
    throw e;
  }
  const files = Object.entries(entries).map(([path, data]) => ({ path, text: noteText(data) }));
  checkCount(files.length, limits);
  return { files, skipped };
}

/** UTF-8 (most notes), UTF-16 with its byte order mark, else Windows-1252 (a note saved by an old editor). */
function noteText(bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    const marked = decodeText(bytes, "text/markdown");
    return marked.includes("\uFFFD") ? new TextDecoder("windows-1252").decode(bytes) : marked;
  }
}

export function checkCount(notes: number, limits: VaultLimits): void {
  if (notes > limits.maxNotes)
    throw new AppError("invalid_request", `The vault holds ${notes} notes; one import takes at most ${limits.maxNotes} (BRAINBOX_VAULT_MAX_NOTES)`, { limit: limits.maxNotes });
}

export const vaultTooLarge = (limit: number) =>
  new AppError("payload_too_large", `The vault is larger than ${formatBytes(limit)} (BRAINBOX_VAULT_MAX_BYTES)`, { limit });

/** Writes the notes into the brain; answers what was written. */
export async function importNotes(db: RootDb, brainId: string, files: Array<{ path: string; text: string }>, skipped: number): Promise<VaultImportResult> {
  if (files.length === 0) throw new AppError("invalid_request", "The vault holds no Markdown notes (.md files)");
  const taken = new Set((await db.select({ slug: pages.slug }).from(pages).where(eq(pages.brainId, brainId))).map((p) => p.slug));
  const notes = readVault(files, taken).map((note) => ({ ...note, sourceId: newTimeOrderedId("src") }));
  // Batches keep each write short (the embedded driver holds the thread while it writes); a batch that fails
  // takes the earlier ones back with it, so an import is whole or not at all.
  const written: string[] = [];
  try {
    for (let i = 0; i < notes.length; i += WRITE_BATCH) {
      const batch = notes.slice(i, i + WRITE_BATCH);
      await runBatch(db, batch.flatMap((n) => noteStatements(brainId, n)));
      written.push(...batch.map((n) => n.sourceId));
    }
  } catch (e) {
    for (let i = 0; i < written.length; i += WRITE_BATCH)
      await runBatch(db, [stmt("DELETE FROM sources WHERE id IN (SELECT value FROM json_each(?))", JSON.stringify(written.slice(i, i + WRITE_BATCH)))]);
    if (isUniqueViolation(e)) throw new AppError("conflict", "A page was written into the brain with a slug this import meant to use: nothing was imported; send the vault again");
    throw e;
  }
  return { imported: notes.length, skipped, pages: notes.map(({ slug, title, path }) => ({ slug, title, path })) };
}

function noteStatements(brainId: string, note: VaultNote & { sourceId: string }): Statement[] {
  const { sourceId } = note;
  const now = Date.now();
  return [
    stmt(
      "INSERT INTO sources (id, brain_id, type, title, status, content, filename, page_count, created_at, updated_at) VALUES (?, ?, 'note', ?, 'ready', ?, ?, 1, ?, ?)",
      sourceId, brainId, note.title, note.markdown, note.path.slice(0, 500), now, now,
    ),
    stmt(
      "INSERT INTO pages (brain_id, source_id, kind, slug, title, markdown, search_text, position, created_at, updated_at) VALUES (?, ?, 'note', ?, ?, ?, ?, 0, ?, ?)",
      brainId, sourceId, note.slug, note.title, note.markdown, searchTextOf(note.markdown), now, now,
    ),
    ...pageLinkStatements(brainId, stmt("SELECT id FROM pages WHERE source_id = ?", sourceId), note.markdown, undefined, true),
  ];
}
