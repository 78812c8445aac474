// A document that kills the process while it is read (out of memory, a crash in a parser) must not be read
// again at every restart. When a link's or file's turn on the reader comes its job records, durably, that a
// read started (documents are read one at a time, so only the one being read is marked, never those waiting);
// the mark is removed when the read ends, whatever its outcome. A job claimed with marks left is one whose reads
// died with the process: at EXTRACTION_CRASH_LIMIT of them the source fails for good.
import { sql } from "drizzle-orm";
import type { Db } from "../../db/client";
import { jobs } from "../../db/schema";
import { PermanentJobError } from "../loop";
import type { Job } from "../../queue";

export const EXTRACTION_CRASH_LIMIT = 2;

/**
 * Runs `read`, which calls `beforeRead` just before the document is read: that sets the durable mark, removed
 * when `read` ends. Refuses a job whose earlier reads died with the process.
 */
export async function readMarked<T>(db: Db, job: Job, read: (beforeRead: () => Promise<void>) => Promise<T>): Promise<T> {
  const died = Number(job.payload?.extracting ?? 0);
  if (died >= EXTRACTION_CRASH_LIMIT) {
    throw new PermanentJobError(`reading the document stopped the server ${died} times; it is not tried again`);
  }
  let marked = false;
  const mark = async () => {
    await db.run(sql`UPDATE ${jobs} SET payload = json_set(coalesce(payload, '{}'), '$.extracting', ${died + 1}) WHERE id = ${job.id}`);
    marked = true;
  };
  try {
    return await read(mark);
  } finally {
    if (marked) await db.run(sql`UPDATE ${jobs} SET payload = json_remove(payload, '$.extracting') WHERE id = ${job.id}`).catch(() => undefined);
  }
}
