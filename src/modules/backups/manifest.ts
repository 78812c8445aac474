// What a backup archive holds, written as its first entry (manifest.json): restore checks it before it
// writes a byte, and checks every file against it as the file arrives.
import { isAbsolute } from "node:path";
import { migrations } from "../../db/migrations";
import { AppError } from "../../lib/errors";

export const MANIFEST_NAME = "manifest.json";
export const BACKUP_FORMAT = "brainbox-backup";
export const BACKUP_FORMAT_VERSION = 1;
export const DATABASE_FILE = "brainbox.db";

export interface ManifestFile {
  path: string;
  size: number;
  sha256: string;
}

export interface Manifest {
  format: typeof BACKUP_FORMAT;
  formatVersion: number;
  appVersion: string;
  createdAt: string;
  /** The last migration the database copy holds: its tag and drizzle journal timestamp. */
  schema: { migration: string; when: number };
  /** local: the uploads are in the archive; s3: they stay in the bucket and are not copied. */
  storage: { kind: "local" | "s3"; uploadsIncluded: boolean; note?: string };
  files: ManifestFile[];
}

/** The newest migration this binary knows. */
export const latestMigration = () => migrations[migrations.length - 1]!;

/** The tag of the migration applied at `when` (a database made by a newer binary may hold one unknown here). */
export const migrationTagAt = (when: number) => migrations.find((m) => m.when === when)?.tag ?? `unknown (${when})`;

/** The manifest parsed and checked against this binary, or a refusal that names what is wrong. */
export function checkManifest(text: string): Manifest {
  let m: Manifest;
  try {
    m = JSON.parse(text);
  } catch {
    throw refuse("its manifest.json is not valid JSON");
  }
  if (m?.format !== BACKUP_FORMAT) throw refuse("its manifest.json is not a Brainbox backup manifest");
  if (m.formatVersion > BACKUP_FORMAT_VERSION) throw refuse(`it is in backup format ${m.formatVersion}, newer than this brainbox reads (${BACKUP_FORMAT_VERSION}); upgrade brainbox first`);
  const latest = latestMigration();
  if (!(Number(m.schema?.when) > 0)) throw refuse("its manifest.json names no schema version");
  if (m.schema.when > latest.when)
    throw refuse(`its database schema (${m.schema.migration}) is newer than this brainbox ${m.appVersion ? `(the backup was made by ${m.appVersion}) ` : ""}knows (latest ${latest.tag}); restore it with that version or newer`);
  if (!Array.isArray(m.files) || !m.files.some((f) => f.path === DATABASE_FILE)) throw refuse(`its manifest.json lists no ${DATABASE_FILE}`);
  for (const f of m.files) {
    if (typeof f.path !== "string" || !safeRelativePath(f.path)) throw refuse(`its manifest.json names an unsafe path: ${JSON.stringify(f.path)}`);
    if (!Number.isSafeInteger(f.size) || f.size < 0 || !/^[0-9a-f]{64}$/.test(String(f.sha256))) throw refuse(`its manifest.json entry for ${f.path} has no valid size and sha256`);
  }
  return m;
}

/** A path inside the data dir: relative, forward slashes, no `.` or `..` segment, no NUL. */
export function safeRelativePath(path: string): boolean {
  if (!path || isAbsolute(path) || path.includes("\\") || path.includes("\0")) return false;
  return path.split("/").every((segment) => segment !== "" && segment !== "." && segment !== "..");
}

export const refuse = (why: string) => new AppError("invalid_request", `This backup cannot be restored: ${why}.`);
