// Backups made through the API: one at a time, in the background of this process, into BRAINBOX_BACKUP_DIR.
// A finished backup is its archive `<id>.tar` and a record `<id>.json` beside it, so the list survives a
// restart; a backup still running lives only in memory (a restart ends it, and its parts are removed the
// next time one starts). Retention: the newest BRAINBOX_BACKUP_KEEP are kept.
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { AppError, notFound } from "../../lib/errors";
import type { Logger } from "../../lib/log";
import { newTimeOrderedId } from "../../lib/secrets";
import { writeBackup, type BackupPhase, type BackupSource } from "./create";

export interface BackupView {
  id: string;
  status: "running" | "ready" | "failed";
  phase: BackupPhase;
  bytesDone: number;
  bytesTotal: number;
  /** The archive's size once ready. */
  size: number | null;
  files: number | null;
  schema: string | null;
  /** Whether the uploads are in the archive (false with S3-compatible storage: see `note`). */
  uploadsIncluded: boolean | null;
  note: string | null;
  error: string | null;
  createdBy: string | null;
  createdAt: string;
  finishedAt: string | null;
}

export interface BackupSettings {
  dir: string;
  keep: number;
  source: BackupSource;
  log: Logger;
}

const ID = /^bak_[A-Za-z0-9_-]{1,64}$/;

export function createBackupService(settings: BackupSettings) {
  const running = new Map<string, BackupView>();
  const archiveOf = (id: string) => join(settings.dir, `${id}.tar`);
  const recordOf = (id: string) => join(settings.dir, `${id}.json`);

  async function readRecord(id: string): Promise<BackupView | null> {
    if (!ID.test(id)) return null;
    return running.get(id) ?? (await readFile(recordOf(id), "utf8").then(JSON.parse, () => null));
  }

  async function list(): Promise<BackupView[]> {
    const names = await readdir(settings.dir).catch(() => [] as string[]);
    const stored = await Promise.all(names.filter((n) => n.endsWith(".json")).map((n) => readRecord(n.slice(0, -5))));
    const all = [...running.values(), ...stored.filter((v): v is BackupView => v !== null && !running.has(v.id))];
    return all.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id));
  }

  async function finish(view: BackupView) {
    await writeFile(recordOf(view.id), JSON.stringify(view, null, 2));
    running.delete(view.id);
    const old = (await list()).filter((v) => v.status !== "running").slice(settings.keep);
    for (const v of old) await remove(v.id);
  }

  async function run(view: BackupView) {
    try {
      await mkdir(settings.dir, { recursive: true });
      await removeLeftovers();
      const { manifest, size } = await writeBackup(settings.source, archiveOf(view.id), (p) => Object.assign(view, p));
      Object.assign(view, {
        status: "ready",
        size,
        files: manifest.files.length,
        schema: manifest.schema.migration,
        uploadsIncluded: manifest.storage.uploadsIncluded,
        note: manifest.storage.note ?? null,
      });
    } catch (e) {
      settings.log.warn("backup failed", { id: view.id, error: (e as Error).message });
      Object.assign(view, { status: "failed", error: (e as Error).message });
    }
    view.finishedAt = new Date().toISOString();
    await finish(view).catch((e) => settings.log.warn("backup record not written", { id: view.id, error: String(e) }));
  }

  /** Starts a backup; 409 while another one runs. Checked and taken with no await between: one at a time. */
  function start(createdBy: string | null): BackupView {
    if (running.size) throw new AppError("conflict", "A backup is already running: wait for it to finish", { backupId: [...running.keys()][0] });
    if (!settings.source.databaseFile) throw new AppError("invalid_request", "Backups copy the embedded database file; with a libSQL server (BRAINBOX_DATABASE_URL) use the server's own backups");
    const view: BackupView = {
      id: newTimeOrderedId("bak"),
      status: "running",
      phase: "snapshot",
      bytesDone: 0,
      bytesTotal: 0,
      size: null,
      files: null,
      schema: null,
      uploadsIncluded: null,
      note: null,
      error: null,
      createdBy,
      createdAt: new Date().toISOString(),
      finishedAt: null,
    };
    running.set(view.id, view);
    void run(view);
    return { ...view };
  }

  /** Parts of a backup a restart interrupted (none of this process's: one runs at a time). */
  async function removeLeftovers() {
    for (const name of await readdir(settings.dir).catch(() => [] as string[]))
      if (/\.tar\.(part|staging)$/.test(name)) await rm(join(settings.dir, name), { recursive: true, force: true });
  }

  async function get(id: string): Promise<BackupView> {
    const view = await readRecord(id);
    if (!view) throw notFound("Backup");
    return { ...view };
  }

  /** The archive's path of a ready backup; 409 while it runs, 404 when it failed or is gone. */
  async function archive(id: string): Promise<string> {
    const view = await get(id);
    if (view.status === "running") throw new AppError("conflict", "The backup is still running: download it once its status is ready");
    if (view.status !== "ready") throw new AppError("not_found", `The backup failed and has no archive: ${view.error}`);
    return archiveOf(id);
  }

  async function remove(id: string): Promise<void> {
    if (running.has(id)) throw new AppError("conflict", "The backup is still running: delete it once it has finished");
    await get(id);
    await rm(archiveOf(id), { force: true });
    await rm(recordOf(id), { force: true });
  }

  return { start, list, get, archive, remove };
}

export type BackupService = ReturnType<typeof createBackupService>;
