// A brain as an Obsidian vault: one `<slug>.md` per page at the top (Obsidian resolves `[[slug]]` and
// `[[slug|Shown]]` by file name, so every link of the wiki works as written), YAML front matter with the
// page's title (also as an alias, so `[[Title]]` resolves too), kind, slug, revision and source, and the
// uploaded files of the brain's sources under `_brainbox/sources/<source id>/`. The zip is streamed a page
// batch at a time: memory holds one batch of pages or one upload, never the whole brain.
import { and, asc, eq, gt, inArray } from "drizzle-orm";
import { Zip, ZipDeflate, ZipPassThrough } from "fflate";
import type { RootDb } from "../../db/client";
import { pages, sources } from "../../db/schema";
import type { Logger } from "../../lib/log";
import type { BlobStorage } from "../../storage";
import { withFrontMatter } from "./front-matter";

/** Where the export keeps what is not a note; an import skips it. */
export const VAULT_META_DIR = "_brainbox";
const BATCH = 200;

type SourceRow = Pick<typeof sources.$inferSelect, "id" | "type" | "url" | "filename" | "storageKey" | "uploadedAt">;

export interface VaultExportDeps {
  db: RootDb;
  storage: BlobStorage;
  log: Logger;
}

/** Safe characters of an uploaded file's name inside the vault. */
const fileNameOf = (s: SourceRow) => (s.filename ?? s.storageKey?.split("/").pop() ?? "file").replace(/[^\p{L}\p{N}._ -]+/gu, "-").replace(/^\.+/, "") || "file";
const sourceFilePath = (s: SourceRow) => `${VAULT_META_DIR}/sources/${s.id}/${fileNameOf(s)}`;

/** The zip as a stream of bytes; `onDone` hears how many pages and files went in. */
export function exportVault(deps: VaultExportDeps, brain: { id: string; name: string; slug: string }, onDone?: (counts: { pages: number; files: number }) => void): ReadableStream<Uint8Array> {
  const parts = vaultParts(deps, brain, onDone);
  return new ReadableStream<Uint8Array>({
    // Pulled: the next part is made only once the client has taken the last one (backpressure).
    async pull(controller) {
      try {
        const { value, done } = await parts.next();
        if (done) controller.close();
        else controller.enqueue(value);
      } catch (e) {
        deps.log.warn("vault export failed", { brainId: brain.id, error: (e as Error).message });
        controller.error(e);
      }
    },
    async cancel() {
      await parts.return(undefined);
    },
  });
}

async function* vaultParts(deps: VaultExportDeps, brain: { id: string; name: string; slug: string }, onDone?: (counts: { pages: number; files: number }) => void): AsyncGenerator<Uint8Array> {
  const out: Uint8Array[] = [];
  const zip = new Zip((error, chunk) => {
    if (error) throw error;
    out.push(chunk);
  });
  const drain = () => (out.length ? Buffer.concat(out.splice(0)) : null);
  const add = (name: string, bytes: Uint8Array, compress: boolean) => {
    const entry = compress ? new ZipDeflate(name, { level: 6 }) : new ZipPassThrough(name);
    zip.add(entry);
    entry.push(bytes, true);
  };
  let pageCount = 0;
  let fileCount = 0;
  let after = 0;
  const exported = new Set<string>();
  for (;;) {
    const batch = await deps.db.select().from(pages).where(and(eq(pages.brainId, brain.id), gt(pages.id, after))).orderBy(asc(pages.id)).limit(BATCH);
    if (batch.length === 0) break;
    after = batch.at(-1)!.id;
    const sourceIds = [...new Set(batch.map((p) => p.sourceId).filter((id): id is string => id !== null))];
    const rows: SourceRow[] = sourceIds.length
      ? await deps.db.select({ id: sources.id, type: sources.type, url: sources.url, filename: sources.filename, storageKey: sources.storageKey, uploadedAt: sources.uploadedAt }).from(sources).where(inArray(sources.id, sourceIds))
      : [];
    const byId = new Map(rows.map((s) => [s.id, s]));
    for (const page of batch) {
      const source = page.sourceId ? byId.get(page.sourceId) : undefined;
      const fields: Record<string, string | number | string[]> = { title: page.title, aliases: [page.title], kind: page.kind, slug: page.slug, revision: page.revision };
      if (source?.url) fields.source = source.url;
      if (source?.storageKey && source.uploadedAt) fields.source_file = sourceFilePath(source);
      if (source) fields.source_id = source.id;
      add(`${page.slug}.md`, new TextEncoder().encode(withFrontMatter(fields, page.markdown)), true);
      pageCount++;
      const chunk = drain();
      if (chunk) yield chunk;
    }
    for (const source of rows) {
      if (!source.storageKey || !source.uploadedAt || exported.has(source.id)) continue;
      exported.add(source.id);
      const bytes = await deps.storage.read(source.storageKey).catch((e) => {
        deps.log.warn("vault export: a source's file could not be read; left out", { sourceId: source.id, error: (e as Error).message });
        return null;
      });
      if (!bytes) continue;
      add(sourceFilePath(source), bytes, false);
      fileCount++;
      const chunk = drain();
      if (chunk) yield chunk;
    }
  }
  const about = { format: "brainbox-vault", brain: { id: brain.id, name: brain.name, slug: brain.slug }, exportedAt: new Date().toISOString(), pages: pageCount, files: fileCount };
  add(`${VAULT_META_DIR}/brain.json`, new TextEncoder().encode(JSON.stringify(about, null, 2)), true);
  zip.end();
  const last = drain();
  if (last) yield last;
  onDone?.({ pages: pageCount, files: fileCount });
}
