// What an import already sent: file → content hash, per brain and folder, kept in the data dir so a re-run
// skips unchanged files without reading the server. Written atomically after every batch, so a killed import
// re-sends at most one batch (which externalId makes harmless).
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

export class ImportState {
  private hashes: Record<string, string> = {};

  constructor(readonly file: string) {
    try {
      this.hashes = JSON.parse(readFileSync(file, "utf8")).files ?? {};
    } catch {
      this.hashes = {};
    }
  }

  static defaultFile(dataDir: string, brainId: string, folder: string): string {
    const key = createHash("sha256").update(resolve(folder)).digest("hex").slice(0, 16);
    return join(dataDir, "imports", `${brainId}-${key}.json`);
  }

  unchanged(rel: string, hash: string): boolean {
    return this.hashes[rel] === hash;
  }

  record(rel: string, hash: string): void {
    this.hashes[rel] = hash;
  }

  /** Every file an import of this folder sent to the brain (and has not removed since). */
  files(): string[] {
    return Object.keys(this.hashes);
  }

  forget(rel: string): void {
    delete this.hashes[rel];
  }

  save(): void {
    mkdirSync(dirname(this.file), { recursive: true });
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify({ files: this.hashes }));
    renameSync(tmp, this.file);
  }
}

export const contentHash = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
