// Whether writes are failing for lack of space (SQLITE_FULL, ENOSPC): what /api/health reports. The database
// and the uploaded files may sit on different disks, so each kind is tracked on its own: the database client
// reports its writes, blob storage its own; a problem is cleared only by a successful write of the same kind.

export type StorageKind = "database" | "files";

export interface StorageProblem {
  kind: StorageKind;
  reason: string;
  /** Epoch ms of the first failure of this run of failures. */
  since: number;
}

export interface StorageHealth {
  /** A write of this kind (default: the database) failed for lack of space. */
  full(reason: string, kind?: StorageKind): void;
  /** A write of this kind (default: the database) succeeded: its space is back (or never ran out). */
  wrote(kind?: StorageKind): void;
  /** The oldest current problem, or null when every kind has space. */
  problem(): StorageProblem | null;
  /** Every current problem, oldest first. */
  problems(): StorageProblem[];
}

export function createStorageHealth(): StorageHealth {
  const current = new Map<StorageKind, StorageProblem>();
  const problems = () => [...current.values()].sort((a, b) => a.since - b.since);
  return {
    full(reason, kind = "database") {
      current.set(kind, { kind, reason, since: current.get(kind)?.since ?? Date.now() });
    },
    wrote(kind = "database") {
      if (current.size) current.delete(kind);
    },
    problem: () => problems()[0] ?? null,
    problems,
  };
}
