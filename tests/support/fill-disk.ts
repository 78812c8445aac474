// Fills the file system holding `path` to its last byte (a tmpfs the test mounted), so the next write there
// fails with ENOSPC as on a real full disk: large chunks first, then smaller ones for the last pages.
import { closeSync, openSync, writeSync } from "node:fs";

export function fillDiskWith(path: string): void {
  const fd = openSync(path, "w");
  try {
    for (const size of [1 << 20, 4096, 1]) {
      const chunk = new Uint8Array(size);
      try {
        for (;;) writeSync(fd, chunk);
      } catch (e) {
        if ((e as { code?: string }).code !== "ENOSPC") throw e;
      }
    }
  } finally {
    closeSync(fd);
  }
}
