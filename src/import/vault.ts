// `brainbox import --vault PATH --brain ID`: an Obsidian vault (a folder, or a zip of one) into a brain through
// a running server's POST /api/v1/brains/{id}/import. A folder is zipped here with its notes only (the
// server would skip attachments and settings anyway); the server checks and caps everything again.
import { readdir, readFile, stat } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { zipSync } from "fflate";
import { isNoteEntry } from "../modules/vault/read-vault";

export interface VaultImportArgs {
  path: string;
  brainId: string;
  url: string;
  key: string;
}

/** Imports the vault; answers the lines to print, or throws with the server's error in plain words. */
export async function importVault(args: VaultImportArgs): Promise<string[]> {
  const info = await stat(args.path);
  const zip = info.isDirectory() ? await zipFolder(args.path) : new Uint8Array(await readFile(args.path));
  const res = await fetch(`${args.url.replace(/\/$/, "")}/api/v1/brains/${encodeURIComponent(args.brainId)}/import`, {
    method: "POST",
    headers: { authorization: `Bearer ${args.key}`, "content-type": "application/zip" },
    body: new Blob([zip as BlobPart]),
  });
  const body = (await res.json().catch(() => null)) as { import?: { imported: number; skipped: number }; error?: { code: string; message: string } } | null;
  if (res.status !== 201 || !body?.import) throw new Error(`the server refused the vault (${res.status}${body?.error ? ` ${body.error.code}: ${body.error.message}` : ""})`);
  return [`Imported ${body.import.imported} notes into brain ${args.brainId} (${body.import.skipped} other files skipped)`];
}

/** The folder's Markdown notes as a zip, by their paths inside the vault. */
async function zipFolder(folder: string): Promise<Uint8Array> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  const files: Record<string, Uint8Array> = {};
  for (const e of entries) {
    if (!e.isFile()) continue;
    const path = relative(folder, join(e.parentPath, e.name)).split(sep).join("/");
    if (isNoteEntry(path)) files[path] = new Uint8Array(await readFile(join(folder, path)));
  }
  return zipSync(files, { level: 6 });
}
