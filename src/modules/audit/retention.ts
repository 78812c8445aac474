// BRAINBOX_AUDIT_RETENTION_DAYS: a periodic pass deletes older events (at start, then hourly). Every
// replica may run it: the delete is idempotent, and a pass that fails (a full disk) is retried next hour.
import type { Db } from "../../db/client";
import type { Logger } from "../../lib/log";
import { pruneAudit } from "./service";

const INTERVAL_MS = 3600_000;

export function startAuditRetention(db: Db, retentionDays: number, log: Logger): { stop(): void } {
  let running = false;
  const pass = () => {
    if (running) return;
    running = true;
    pruneAudit(db, retentionDays)
      .then((deleted) => deleted > 0 && log.info("audit events past their retention deleted", { deleted, retentionDays }))
      .catch((error: unknown) => log.warn("audit retention pass failed", { error: String(error) }))
      .finally(() => (running = false));
  };
  pass();
  const timer = setInterval(pass, INTERVAL_MS);
  timer.unref?.();
  return { stop: () => clearInterval(timer) };
}
