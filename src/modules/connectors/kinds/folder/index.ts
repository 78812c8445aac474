// The folder kind: a server folder (a share mounted on the appliance) under the roots allow-listed by
// BRAINBOX_CONNECTOR_FOLDER_ROOTS. A file whose size and modification time did not change is not read; one
// that changed is read and hashed, and only new content is written. Files removed from the folder are pruned.
import { lstat, readdir, readFile, realpath, stat } from "node:fs/promises";
import { join } from "node:path";
import type { ConnectorKind, ItemRef, KindRun } from "../types";
import { onlyKnownKeys, optionalBool, optionalInt } from "../config-fields";
import { contentHash, fileSource, parseFileSelection, selected, type FileSelection } from "../files";
import { folderUnderRoots, isUnder } from "../server-paths";

export interface FolderConfig extends FileSelection {
  path: string;
  maxFiles: number;
  maxFileBytes: number;
  prune: boolean;
  roots: readonly string[];
}

const ROOTS_ENV = "BRAINBOX_CONNECTOR_FOLDER_ROOTS";

/** `size:mtime:hash`: the first two say whether to read the file again, the hash whether it changed. */
const versionOf = (size: number, mtimeMs: number, hash: string) => `${size}:${Math.trunc(mtimeMs)}:${hash}`;

async function realUnderRoots(path: string, roots: readonly string[]): Promise<string | null> {
  const real = await realpath(path);
  const allowed = await Promise.all(roots.map((r) => realpath(r).catch(() => null)));
  return allowed.some((root) => root !== null && isUnder(root, real)) ? real : null;
}

async function walk(run: KindRun<FolderConfig>, root: string, rel: string, out: ItemRef[]): Promise<void> {
  const names = (await readdir(join(root, rel))).sort();
  for (const name of names) {
    if (out.length >= run.config.maxFiles) return;
    if (name.startsWith(".")) continue; // hidden files and folders (.git, editor state) are not content
    const key = rel ? `${rel}/${name}` : name;
    const path = join(root, key);
    const info = await lstat(path).catch(() => null);
    if (!info) continue;
    let target = info;
    if (info.isSymbolicLink()) {
      const real = await realUnderRoots(path, run.config.roots).catch(() => null);
      if (!real) {
        run.note(`${key}: a symlink that leads out of the allowed folders (or nowhere) is not read`);
        continue;
      }
      target = await stat(real);
      if (target.isDirectory()) continue; // a linked folder could loop or repeat another: files only
    }
    if (target.isDirectory()) await walk(run, root, key, out);
    else if (target.isFile() && selected(run.config, key)) out.push({ key });
  }
}

export const folderKind: ConnectorKind<FolderConfig> = {
  kind: "folder",
  secretKeys: [],
  ownsSources: true,
  parseConfig(raw, env) {
    onlyKnownKeys(raw, ["path", "include", "exclude", "maxFiles", "maxFileBytes", "prune"]);
    return {
      path: folderUnderRoots(raw.path, "path", env.folderRoots, ROOTS_ENV),
      ...parseFileSelection(raw),
      maxFiles: optionalInt(raw, "maxFiles", 10_000, 1, 100_000),
      maxFileBytes: optionalInt(raw, "maxFileBytes", 10 * 1024 * 1024, 1, 100 * 1024 * 1024),
      prune: optionalBool(raw, "prune", true),
      roots: env.folderRoots,
    };
  },
  async list(run) {
    const out: ItemRef[] = [];
    await walk(run, run.config.path, "", out);
    return out;
  },
  async fetch(run, item, known) {
    const path = join(run.config.path, item.key);
    let real: string | null;
    try {
      real = await realUnderRoots(path, run.config.roots);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return { kind: "gone" };
      throw e;
    }
    if (!real) return { kind: "skipped", reason: "it leads out of the allowed folders" };
    const info = await stat(real);
    const [size, mtime, hash] = known?.sourceId && known.version ? known.version.split(":") : [];
    if (Number(size) === info.size && Number(mtime) === Math.trunc(info.mtimeMs)) return { kind: "unchanged" };
    if (info.size > run.config.maxFileBytes) throw new Error(`the file is larger than ${run.config.maxFileBytes} bytes`);
    const bytes = new Uint8Array(await readFile(real));
    const version = versionOf(info.size, info.mtimeMs, contentHash(bytes));
    if (hash && version.endsWith(`:${hash}`)) return { kind: "unchanged", version };
    return fileSource(run as KindRun<unknown>, item.key, bytes, version);
  },
  prunes: (c) => c.prune,
  revisitsKnown: () => false,
  maxItems: (c) => c.maxFiles,
  concurrency: () => 4,
};
