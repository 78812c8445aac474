// Page slugs planned by job batches of this process and not yet written. Each batch plans its sources' slugs
// against the database, which cannot see what a concurrent batch planned a moment earlier: two batches gave
// two sources of the same title the same slug, and the later write lost its page (13 of 83 SQuAD paragraphs,
// all titled "Rhine" or "Normans", at job concurrency 4). Another replica's batch is still possible: its write
// then fails on the unique (brain, slug) index and the job retries with fresh slugs.
import type { SlugReservations } from "./write-pages";

export interface BatchSlugs extends SlugReservations {
  /** Gives back this batch's slugs once its pages are written (or it gave up). */
  release(): void;
}

export class InFlightSlugs {
  private readonly byBrain = new Map<string, Set<string>>();

  forBatch(brainId: string): BatchSlugs {
    const held = new Set<string>();
    const shared = () => {
      let set = this.byBrain.get(brainId);
      if (!set) this.byBrain.set(brainId, (set = new Set()));
      return set;
    };
    return {
      has: (slug) => this.byBrain.get(brainId)?.has(slug) ?? false,
      add: (slug) => {
        shared().add(slug);
        held.add(slug);
      },
      release: () => {
        const set = this.byBrain.get(brainId);
        if (!set) return;
        for (const slug of held) set.delete(slug);
        if (set.size === 0) this.byBrain.delete(brainId);
        held.clear();
      },
    };
  }
}
