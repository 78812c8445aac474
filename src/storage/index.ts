// Where uploaded files live: the data dir by default, an S3-compatible bucket when configured.
import { isStorageFull } from "../lib/db-errors";
import type { StorageHealth } from "../lib/storage-health";
import { createLocalStorage } from "./local";
import { createS3Storage } from "./s3";

export interface BlobStorage {
  readonly kind: "local" | "s3";
  write(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  read(key: string): Promise<Uint8Array>;
  exists(key: string): Promise<boolean>;
  delete(key: string): Promise<void>;
  /** A URL the client PUTs to directly (S3 presigned); null when uploads go through this server. */
  presignPut(key: string, opts: { contentType: string; expiresInSeconds: number }): string | null;
}

/** What the storage needs of the configuration (src/config.ts names the same fields). */
export interface StorageSettings {
  dataDir: string;
  s3Bucket?: string;
  s3Endpoint?: string;
  s3Region: string;
  s3AccessKeyId?: string;
  s3SecretAccessKey?: string;
}

/** The configured storage; its writes tell `health` whether the files' disk has space (apart from the database's). */
export function createStorage(config: StorageSettings, health?: StorageHealth): BlobStorage {
  const storage = pickStorage(config);
  return health ? reportingSpace(storage, health) : storage;
}

function reportingSpace(storage: BlobStorage, health: StorageHealth): BlobStorage {
  return {
    ...storage,
    async write(key, bytes, contentType) {
      try {
        await storage.write(key, bytes, contentType);
      } catch (e) {
        if (isStorageFull(e)) health.full(String((e as Error)?.message ?? e), "files");
        throw e;
      }
      health.wrote("files");
    },
  };
}

function pickStorage(config: StorageSettings): BlobStorage {
  if (config.s3Bucket)
    return createS3Storage({
      bucket: config.s3Bucket,
      endpoint: config.s3Endpoint,
      region: config.s3Region,
      accessKeyId: config.s3AccessKeyId!,
      secretAccessKey: config.s3SecretAccessKey!,
    });
  return createLocalStorage(`${config.dataDir}/uploads`);
}
