// Batching in front of an embedder: ingestion jobs embed a few pages each, concurrently. While the model
// works on one batch, new calls queue up and go together as the next batch, so a busy loop gets the model's
// batch throughput (~1.5x batch 1 on CPU, DESIGN.md) and an idle one adds no waiting at all.
import type { Embedder } from "./embedder";

interface Pending {
  texts: string[];
  resolve(vectors: Float32Array[]): void;
  reject(error: unknown): void;
}

export function batchingEmbedder(inner: Embedder, opts: { maxBatch?: number } = {}): Embedder {
  const maxBatch = opts.maxBatch ?? 32;
  let queue: Pending[] = [];
  let busy = false;

  async function drain() {
    busy = true;
    while (queue.length > 0) {
      // Take whole calls up to maxBatch texts (a single larger call goes alone; the embedder splits it).
      const batch: Pending[] = [];
      let size = 0;
      while (queue.length > 0 && (batch.length === 0 || size + queue[0]!.texts.length <= maxBatch)) {
        const next = queue.shift()!;
        batch.push(next);
        size += next.texts.length;
      }
      try {
        const vectors = await inner.embed(batch.flatMap((p) => p.texts));
        let at = 0;
        for (const p of batch) {
          p.resolve(vectors.slice(at, at + p.texts.length));
          at += p.texts.length;
        }
      } catch (e) {
        for (const p of batch) p.reject(e);
      }
    }
    busy = false;
  }

  return {
    model: inner.model,
    // Read through: a remote embedder learns its dimension on its first answer.
    get dim() {
      return inner.dim;
    },
    embed(texts) {
      if (texts.length === 0) return Promise.resolve([]);
      return new Promise((resolve, reject) => {
        queue.push({ texts, resolve, reject });
        if (!busy) void drain();
      });
    },
  };
}
