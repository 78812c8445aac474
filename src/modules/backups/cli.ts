// `brainbox backup PATH` and `brainbox restore PATH`: the operator's commands, on the machine that holds the
// data dir. A backup works while a server runs on the same data dir (the copy is made on its own connection);
// a restore writes only into an empty data dir, for a server started on it afterwards.
import { stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { Config } from "../../config";
import { AppError } from "../../lib/errors";
import { writeBackup, type BackupSource } from "./create";
import { restoreBackup } from "./restore";

/** What a backup of this configuration copies. */
export function backupSourceOf(config: Config, appVersion: string): BackupSource {
  return {
    databaseFile: config.databaseUrl ? null : join(config.dataDir, "brainbox.db"),
    uploadsDir: config.s3Bucket ? null : join(config.dataDir, "uploads"),
    appVersion,
  };
}

/** A file name for a backup made now, sortable by time. */
export const backupFileName = (at = new Date()) => `brainbox-backup-${at.toISOString().replace(/[:.]/g, "-")}.tar`;

/** Writes the archive at `path` (a folder: a new file in it); answers the lines to print. */
export async function backupCommand(config: Config, appVersion: string, path: string): Promise<string[]> {
  const source = backupSourceOf(config, appVersion);
  if (source.databaseFile && !(await stat(source.databaseFile).catch(() => null)))
    throw new AppError("not_found", `No database at ${source.databaseFile}: set BRAINBOX_DATA_DIR to the server's data dir`);
  const target = resolve(path);
  const existing = await stat(target).catch(() => null);
  const out = existing?.isDirectory() ? join(target, backupFileName()) : target;
  if (existing && !existing.isDirectory()) throw new AppError("conflict", `${target} already exists: name a new file or a folder`);
  const { manifest, size } = await writeBackup(source, out);
  const lines = [`Backup written to ${out} (${size} bytes, ${manifest.files.length} files, schema ${manifest.schema.migration})`];
  if (manifest.storage.note) lines.push(manifest.storage.note);
  return lines;
}

/** Restores the archive at `path` into BRAINBOX_DATA_DIR, which must be empty or absent. */
export async function restoreCommand(config: Config, path: string): Promise<string[]> {
  const result = await restoreBackup(resolve(path), config.dataDir);
  const lines = [`Restored ${result.files} files (${result.bytes} bytes, schema ${result.manifest.schema.migration}, made ${result.manifest.createdAt}) into ${config.dataDir}`];
  if (result.manifest.storage.note) lines.push(result.manifest.storage.note);
  return lines;
}
