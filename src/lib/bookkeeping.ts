// Writes that only keep records (a key's last use, a grant's): a request that reads must not fail because
// one of them could not be written (a full disk). Logged, and the database client has already told health.
import type { Logger } from "./log";

export async function recordQuietly(what: string, write: () => Promise<unknown>, log?: Logger): Promise<void> {
  try {
    await write();
  } catch (e) {
    log?.warn("bookkeeping write failed; the request goes on", { what, error: String((e as Error)?.message ?? e) });
  }
}
