// Tampered copies of a real backup archive, for restore's refusals: entries read with the archive's own
// reader and written again with a change (a manifest edited, an entry left out, a file's bytes altered).
import { open, stat } from "node:fs/promises";
import { TarReader, TarWriter } from "../../src/modules/backups/tar";

export interface ArchiveEntry {
  name: string;
  data: Uint8Array;
}

export async function readEntries(path: string): Promise<ArchiveEntry[]> {
  const handle = await open(path, "r");
  try {
    const tar = new TarReader(handle, (await stat(path)).size);
    const entries: ArchiveEntry[] = [];
    for (let e = await tar.next(); e; e = await tar.next()) {
      const parts: Uint8Array[] = [];
      for await (const chunk of tar.data()) parts.push(chunk);
      entries.push({ name: e.name, data: Buffer.concat(parts) });
    }
    return entries;
  } finally {
    await handle.close();
  }
}

export async function writeEntries(path: string, entries: ArchiveEntry[]): Promise<string> {
  const handle = await open(path, "w");
  try {
    const tar = new TarWriter(handle);
    for (const e of entries) await tar.addBytes(e.name, e.data);
    await tar.end();
  } finally {
    await handle.close();
  }
  return path;
}

/** The entries with the manifest (the first) changed by `edit`. */
export function withManifest(entries: ArchiveEntry[], edit: (m: any) => void): ArchiveEntry[] {
  const manifest = JSON.parse(new TextDecoder().decode(entries[0]!.data));
  edit(manifest);
  return [{ name: entries[0]!.name, data: new TextEncoder().encode(JSON.stringify(manifest)) }, ...entries.slice(1)];
}
