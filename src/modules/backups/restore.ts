// Restores a backup archive into an empty data dir. Nothing is trusted before it is checked: the manifest
// first (format, schema version against this binary, safe paths), then every file as it is written (size and
// sha256), then that no file the manifest lists is missing. Any refusal removes what was written.
import { mkdir, open, readdir, rm, stat } from "node:fs/promises";
import { dirname, join, resolve, sep } from "node:path";
import { AppError } from "../../lib/errors";
import { checkManifest, MANIFEST_NAME, refuse, type Manifest } from "./manifest";
import { TarReader } from "./tar";

/** The largest manifest read into memory (a manifest lists paths, sizes and checksums). */
const MANIFEST_MAX_BYTES = 64 * 1024 * 1024;

export interface RestoreResult {
  manifest: Manifest;
  files: number;
  bytes: number;
}

export async function restoreBackup(archive: string, dataDir: string): Promise<RestoreResult> {
  const info = await stat(archive).catch(() => null);
  if (!info?.isFile()) throw new AppError("not_found", `No backup archive at ${archive}`);
  const root = resolve(dataDir);
  await requireEmpty(root);
  const handle = await open(archive, "r");
  let started = false;
  try {
    const tar = new TarReader(handle, info.size);
    const first = await tar.next();
    if (first?.name !== MANIFEST_NAME) throw refuse(`it does not start with ${MANIFEST_NAME} (is it a Brainbox backup?)`);
    if (first.size > MANIFEST_MAX_BYTES) throw refuse(`its ${MANIFEST_NAME} is larger than ${MANIFEST_MAX_BYTES} bytes`);
    const manifest = checkManifest(await readAll(tar.data()));
    const expected = new Map(manifest.files.map((f) => [f.path, f]));
    await mkdir(root, { recursive: true });
    started = true;
    let bytes = 0;
    for (let entry = await tar.next(); entry; entry = await tar.next()) {
      const file = expected.get(entry.name);
      if (!file) throw refuse(`it holds ${entry.name}, which its manifest does not list`);
      expected.delete(entry.name);
      const { size, sha256 } = await writeEntry(tar, join(root, file.path), root);
      if (size !== file.size) throw refuse(`${file.path} is ${size} bytes, the manifest says ${file.size} (the archive is cut or damaged)`);
      if (sha256 !== file.sha256) throw refuse(`${file.path} has the wrong checksum (sha256 ${sha256}, the manifest says ${file.sha256})`);
      bytes += size;
    }
    if (expected.size) throw refuse(`${[...expected.keys()].slice(0, 5).join(", ")}${expected.size > 5 ? ` and ${expected.size - 5} more` : ""} ${expected.size === 1 ? "is" : "are"} missing from the archive`);
    return { manifest, files: manifest.files.length, bytes };
  } catch (e) {
    if (started) await emptyDir(root);
    if (e instanceof AppError) throw e;
    throw refuse((e as Error).message);
  } finally {
    await handle.close();
  }
}

async function requireEmpty(root: string) {
  const entries = await readdir(root).catch((e) => {
    if ((e as { code?: string }).code === "ENOENT") return [];
    throw new AppError("invalid_request", `Cannot read the data dir ${root}: ${(e as Error).message}`);
  });
  if (entries.length)
    throw new AppError("conflict", `The data dir ${root} is not empty (it holds ${entries.slice(0, 3).join(", ")}${entries.length > 3 ? ", ..." : ""}): restore only into an empty or new folder, so nothing is overwritten`);
}

async function writeEntry(tar: TarReader, path: string, root: string): Promise<{ size: number; sha256: string }> {
  if (!resolve(path).startsWith(root + sep)) throw refuse(`${path} would be written outside the data dir`);
  await mkdir(dirname(path), { recursive: true });
  const out = await open(path, "wx");
  const hasher = new Bun.CryptoHasher("sha256");
  let size = 0;
  try {
    for await (const chunk of tar.data()) {
      hasher.update(chunk);
      size += chunk.length;
      await out.write(chunk);
    }
    await out.sync();
  } finally {
    await out.close();
  }
  return { size, sha256: hasher.digest("hex") };
}

async function readAll(chunks: AsyncGenerator<Uint8Array>): Promise<string> {
  const parts: Uint8Array[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  return Buffer.concat(parts).toString("utf8");
}

/** Removes what a refused restore wrote; the folder itself stays (it was empty or new). */
async function emptyDir(root: string) {
  for (const name of await readdir(root).catch(() => [])) await rm(join(root, name), { recursive: true, force: true });
}
