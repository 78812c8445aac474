// S3-compatible object storage through Bun's built-in client; uploads go straight to the bucket with a
// presigned PUT, so the server never carries the bytes.
import { S3Client } from "bun";
import type { BlobStorage } from "./index";

export function createS3Storage(opts: {
  bucket: string;
  endpoint?: string;
  region?: string;
  accessKeyId: string;
  secretAccessKey: string;
}): BlobStorage {
  const client = new S3Client(opts);
  return {
    kind: "s3",
    async write(key, bytes, contentType) {
      await client.write(key, bytes, { type: contentType });
    },
    async read(key) {
      return new Uint8Array(await client.file(key).arrayBuffer());
    },
    exists: (key) => client.exists(key),
    async delete(key) {
      await client.delete(key);
    },
    presignPut: (key, { contentType, expiresInSeconds }) =>
      client.presign(key, { method: "PUT", expiresIn: expiresInSeconds, type: contentType }),
  };
}
