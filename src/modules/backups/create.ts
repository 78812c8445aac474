// Writes one backup archive: a consistent copy of the database (VACUUM INTO on a thread of its own), the
// uploads as they were at that moment (hard links made right after the copy: uploads are written by rename
// and removed by unlink, so a link keeps the file the copy refers to), and the manifest with sizes and
// checksums. Everything streams; memory stays bounded whatever the size of the data.
import { copyFile, link, mkdir, open, readdir, rename, rm, stat } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { snapshotDatabase } from "../../db/snapshot";
import { AppError } from "../../lib/errors";
import { BACKUP_FORMAT, BACKUP_FORMAT_VERSION, DATABASE_FILE, MANIFEST_NAME, migrationTagAt, type Manifest, type ManifestFile } from "./manifest";
import { fileChunks, TarWriter } from "./tar";

export interface BackupSource {
  /** The embedded database file; null when the database is a libSQL server (no file to copy). */
  databaseFile: string | null;
  /** The local uploads folder; null when uploads live in S3-compatible storage. */
  uploadsDir: string | null;
  appVersion: string;
}

export type BackupPhase = "snapshot" | "checksums" | "writing" | "done";

export interface BackupProgress {
  phase: BackupPhase;
  bytesDone: number;
  bytesTotal: number;
}

export interface BackupResult {
  manifest: Manifest;
  size: number;
}

const S3_NOTE = "Uploads live in S3-compatible storage and are not copied: back the bucket up with its own tools (versioning or replication).";

/** Writes the archive to `out` (through `out.part`, renamed once complete). */
export async function writeBackup(source: BackupSource, out: string, onProgress: (p: BackupProgress) => void = () => {}): Promise<BackupResult> {
  if (!source.databaseFile)
    throw new AppError("invalid_request", "Backups copy the embedded database file; with a libSQL server (BRAINBOX_DATABASE_URL) use the server's own backups");
  const staging = `${out}.staging`;
  const part = `${out}.part`;
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });
  try {
    onProgress({ phase: "snapshot", bytesDone: 0, bytesTotal: 0 });
    const { lastMigration } = await snapshotDatabase(source.databaseFile, join(staging, DATABASE_FILE));
    if (source.uploadsDir) await linkTree(source.uploadsDir, join(staging, "uploads"));
    const paths = [DATABASE_FILE, ...(await filesUnder(join(staging, "uploads"))).map((p) => `uploads/${relative(join(staging, "uploads"), p).split("\\").join("/")}`)];
    const sized = await Promise.all(paths.map(async (path) => ({ path, size: (await stat(join(staging, path))).size })));
    const bytesTotal = sized.reduce((a, f) => a + f.size, 0);
    let hashed = 0;
    const files: ManifestFile[] = [];
    for (const f of sized) {
      const hasher = new Bun.CryptoHasher("sha256");
      for await (const chunk of fileChunks(join(staging, f.path))) {
        hasher.update(chunk);
        hashed += chunk.length;
        onProgress({ phase: "checksums", bytesDone: hashed, bytesTotal });
      }
      files.push({ ...f, sha256: hasher.digest("hex") });
    }
    const manifest: Manifest = {
      format: BACKUP_FORMAT,
      formatVersion: BACKUP_FORMAT_VERSION,
      appVersion: source.appVersion,
      createdAt: new Date().toISOString(),
      schema: { migration: migrationTagAt(lastMigration), when: lastMigration },
      storage: source.uploadsDir ? { kind: "local", uploadsIncluded: true } : { kind: "s3", uploadsIncluded: false, note: S3_NOTE },
      files,
    };
    await writeArchive(staging, part, manifest, (done) => onProgress({ phase: "writing", bytesDone: done, bytesTotal }));
    await rename(part, out);
    const size = (await stat(out)).size;
    onProgress({ phase: "done", bytesDone: bytesTotal, bytesTotal });
    return { manifest, size };
  } catch (e) {
    await rm(part, { force: true });
    throw e;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

async function writeArchive(staging: string, part: string, manifest: Manifest, onBytes: (done: number) => void) {
  await mkdir(dirname(part), { recursive: true });
  const handle = await open(part, "w");
  try {
    const tar = new TarWriter(handle);
    await tar.addBytes(MANIFEST_NAME, new TextEncoder().encode(JSON.stringify(manifest, null, 2)));
    let done = 0;
    for (const f of manifest.files) {
      await tar.addFile(f.path, join(staging, f.path), f.size, (chunk) => onBytes((done += chunk.length)));
    }
    await tar.end();
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Hard links of every file under `from` into `to` (a copy where links cannot go, another file system). */
async function linkTree(from: string, to: string) {
  for (const file of await filesUnder(from)) {
    // A write in progress (`*.part`, storage/local.ts) is not an upload yet.
    if (file.endsWith(".part")) continue;
    const dest = join(to, relative(from, file));
    await mkdir(dirname(dest), { recursive: true });
    await link(file, dest).catch(async (e) => {
      if ((e as { code?: string }).code === "ENOENT") return; // removed since it was listed
      await copyFile(file, dest);
    });
  }
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch((e) => {
    if ((e as { code?: string }).code === "ENOENT") return [];
    throw e;
  });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name)).sort();
}
