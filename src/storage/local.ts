// Files under the data dir. Keys are server-made (brains/<id>/sources/<id>/<name>); the path check below
// still refuses anything that would leave the root.
import { mkdir, rename, rm, stat, writeFile } from "node:fs/promises";
import { dirname, join, resolve, sep } from "node:path";
import type { BlobStorage } from "./index";

export function createLocalStorage(root: string): BlobStorage {
  const base = resolve(root);
  const pathOf = (key: string) => {
    const path = resolve(join(base, key));
    if (!path.startsWith(base + sep)) throw new Error(`storage key escapes the root: ${key}`);
    return path;
  };
  return {
    kind: "local",
    async write(key, bytes) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      // Write then rename: a crash never leaves a half file under the real name.
      const temp = `${path}.${process.pid}.${Date.now()}.part`;
      try {
        await writeFile(temp, bytes);
        await rename(temp, path);
      } catch (e) {
        // A full disk (ENOSPC) leaves what was written so far: give that space back.
        await rm(temp, { force: true });
        throw e;
      }
    },
    async read(key) {
      return new Uint8Array(await Bun.file(pathOf(key)).arrayBuffer());
    },
    async exists(key) {
      return stat(pathOf(key)).then(
        () => true,
        () => false,
      );
    },
    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
    presignPut: () => null,
  };
}
