// Long loops on the main thread (a batch's sources, a refresh's concepts) give the event loop a turn now and
// then, so HTTP requests and the extraction threads' answers are served in between. A turn after every item
// made such a loop crawl whenever another task filled each turn (a lone merge: ~45 ms a turn): applying a
// batch's inward links took 64 turns, ~3 s, while the batch held its job slot and the extraction thread ran
// out of sources. A turn once a slice of time is spent keeps both the requests and the loop moving.

/** The default slice: short beside the HTTP latencies the import bench reports (p99 ~100 ms). */
export const SLICE_MS = 4;

/** A turn of the event loop (for loops whose every item is long: a write or merge transaction). */
export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * A function to await between items: it yields a turn of the event loop when `sliceMs` have passed since the
 * last one (and on its first call), else resolves at once.
 */
export function timeSlicer(sliceMs = SLICE_MS): () => Promise<void> {
  let sliceStart = -Infinity;
  return async () => {
    if (performance.now() - sliceStart < sliceMs) return;
    await nextTurn();
    sliceStart = performance.now();
  };
}
