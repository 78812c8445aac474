// The dimension of the vectors stored under an embedding model (float32 blobs written by vector32()), so a
// model server answering another dimension under the same name is refused instead of mixing the two.
import { sql } from "drizzle-orm";
import type { RootDb } from "./client";

export async function storedVectorDimension(db: RootDb, model: string): Promise<number | undefined> {
  // all(), not get(): drizzle's get() throws on an empty result.
  const [row] = await db.all<{ bytes: number }>(sql`SELECT length(embedding) AS bytes FROM page_vectors WHERE model = ${model} LIMIT 1`);
  return row ? Math.floor(Number(row.bytes) / 4) : undefined;
}
