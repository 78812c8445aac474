// Whether the last write failed for lack of space (SQLITE_FULL, ENOSPC): what /api/health reports, set by the
// database client on every write and by whoever meets a full disk elsewhere (blob storage), cleared by the
// next write that succeeds.

export interface StorageProblem {
  reason: string;
  /** Epoch ms of the first failure of this run of failures. */
  since: number;
}

export interface StorageHealth {
  /** A write failed for lack of space. */
  full(reason: string): void;
  /** A write succeeded: space is back (or never ran out). */
  wrote(): void;
  problem(): StorageProblem | null;
}

export function createStorageHealth(): StorageHealth {
  let current: StorageProblem | null = null;
  return {
    full(reason) {
      current = { reason, since: current?.since ?? Date.now() };
    },
    wrote() {
      if (current) current = null;
    },
    problem: () => current,
  };
}
