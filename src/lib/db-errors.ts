/** True for a UNIQUE/PRIMARY KEY constraint failure from libSQL (a lost race on an insert). */
export function isUniqueViolation(error: unknown): boolean {
  const text = `${(error as { code?: string })?.code ?? ""} ${(error as Error)?.message ?? ""} ${(error as { cause?: Error })?.cause?.message ?? ""}`;
  return /SQLITE_CONSTRAINT_(UNIQUE|PRIMARYKEY)|UNIQUE constraint failed/.test(text);
}

/**
 * True when a write failed for lack of space: SQLite's SQLITE_FULL ("database or disk is full", also past
 * `max_page_count`) or the system's ENOSPC / EDQUOT from a file write, anywhere in the error's causes.
 */
export function isStorageFull(error: unknown): boolean {
  for (let e = error as { code?: unknown; message?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    const text = `${typeof e.code === "string" ? e.code : ""} ${typeof e.message === "string" ? e.message : ""}`;
    if (/SQLITE_FULL|database or disk is full|ENOSPC|EDQUOT|no space left on device|disk quota exceeded/i.test(text)) return true;
  }
  return false;
}

/** True when the lack of space was SQLite's (the database's file), not a file written beside it. */
export function isDatabaseFull(error: unknown): boolean {
  for (let e = error as { code?: unknown; message?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    const text = `${typeof e.code === "string" ? e.code : ""} ${typeof e.message === "string" ? e.message : ""}`;
    if (/SQLITE_FULL|database or disk is full/i.test(text)) return true;
  }
  return false;
}
