// Background (re-)embedding: gives every page a vector for the configured model. Runs at start when a model
// is configured, so changing BRAINBOX_EMBED_MODEL re-embeds existing brains without blocking anything.
import { sql } from "drizzle-orm";
import type { Embedder } from "../ai/embedder";
import type { RootDb } from "../db/client";
import { pages, pageVectors } from "../db/schema";
import type { JobHandler } from "./loop";
import { enqueue } from "../queue";
import { EMBED_PAGES_JOB } from "../queue/kinds";
import { stmt } from "../db/plain";

const BATCH = 64;

/** Enqueues the re-embedding job unless one for this model is already waiting or running. */
export async function scheduleEmbedding(db: RootDb, model: string): Promise<void> {
  await enqueue(
    db,
    { kind: EMBED_PAGES_JOB, subjectId: `model:${model}`, maxAttempts: 5 },
    stmt("NOT EXISTS (SELECT 1 FROM jobs WHERE kind = ? AND subject_id = ? AND status IN ('queued', 'running'))", EMBED_PAGES_JOB, `model:${model}`),
  );
}

export function embedPagesHandler(db: RootDb, embedder: Embedder): JobHandler {
  return {
    kind: EMBED_PAGES_JOB,
    async run(_job, signal) {
      for (;;) {
        signal.throwIfAborted();
        const missing = await db.all<{ id: number; title: string; markdown: string }>(sql`
          SELECT p.id, p.title, p.markdown FROM ${pages} p
          WHERE NOT EXISTS (SELECT 1 FROM ${pageVectors} v WHERE v.page_id = p.id AND v.model = ${embedder.model})
          ORDER BY p.id LIMIT ${BATCH}`);
        if (missing.length === 0) return;
        const vectors = await embedder.embed(missing.map((p) => `${p.title}\n\n${p.markdown}`));
        await db.batch(
          missing.map((p, i) =>
            db.run(sql`INSERT INTO ${pageVectors} (page_id, brain_id, model, embedding)
              SELECT id, brain_id, ${embedder.model}, vector32(${JSON.stringify(Array.from(vectors[i]!))}) FROM ${pages} WHERE id = ${p.id}
              ON CONFLICT (page_id, model) DO NOTHING`),
          ) as unknown as Parameters<RootDb["batch"]>[0],
        );
      }
    },
    async onGiveUp() {},
  };
}
