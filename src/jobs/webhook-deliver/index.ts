// The webhook-deliver job: one outbox row (queue/events.ts) sent to its hook. The job is leased by the loop,
// so a server killed mid-attempt sends it again (at least once; the delivery id, the `webhook-id` header, is
// the same every time, so receivers dedupe by it). A failed attempt is logged and the job waits for its next
// one (exponential backoff with jitter) without counting as a crash; the delivery is given up once it has
// failed for the disable window, and the hook turned off once every delivery failed for that long.
import type { AppContext } from "../../context";
import { queryRows } from "../../db/plain";
import { openSealedOrPlain } from "../../db/sealed";
import { WEBHOOK_DELIVER_JOB } from "../../queue/kinds";
import { TEST_EVENT } from "../../queue/events";
import { DeferJobError, type JobHandler } from "../loop";
import { sendDelivery } from "./send";
import { failWithoutAttempt, recordAttempt } from "./record";

/** The longest wait between two attempts of one delivery. */
export const MAX_RETRY_DELAY_MS = 3_600_000;

/** Exponential backoff, capped, with jitter (half to all of the delay): hooks failing together do not retry together. */
export function retryDelay(baseMs: number, attempt: number, random = Math.random()): number {
  const full = Math.min(MAX_RETRY_DELAY_MS, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(full * (0.5 + random / 2));
}

interface Row {
  id: string;
  type: string;
  payload: string;
  status: string;
  attempts: number;
  created_at: number;
  hook_id: string;
  url: string;
  secret: string;
  enabled: number;
}

export function webhookDeliverHandler(ctx: AppContext): JobHandler {
  const { db, config, log } = ctx;
  return {
    kind: WEBHOOK_DELIVER_JOB,
    async run(job) {
      const [row] = await queryRows<Row>(
        db,
        `SELECT d.id, d.type, d.payload, d.status, d.attempts, d.created_at, h.id AS hook_id, h.url, h.secret, h.enabled
        FROM webhook_deliveries d JOIN webhooks h ON h.id = d.hook_id WHERE d.id = ?`,
        job.subjectId,
      );
      if (!row || row.status !== "pending") return; // hook deleted, or settled before a crash
      if (!row.enabled && row.type !== TEST_EVENT) {
        await failWithoutAttempt(db, row.id, "Not sent: the webhook was turned off");
        return;
      }
      const attempt = Number(row.attempts) + 1;
      const startedAt = Date.now();
      // Hooks made before secrets were sealed hold the plain `whsec_…`; both sign the same way.
      const secret = await openSealedOrPlain(db, row.secret);
      const outcome = await sendDelivery({ id: row.id, url: row.url, secret, payload: row.payload }, { allowHosts: config.fetchAllowHosts, timeoutMs: config.webhookTimeoutMs });
      const finishedAt = Date.now();
      const windowOver = finishedAt - Number(row.created_at) >= config.webhookDisableAfterMs;
      const final = outcome.delivered || outcome.refused || windowOver;
      const delay = final ? 0 : retryDelay(config.webhookRetryBaseMs, attempt);
      const error = outcome.delivered ? null : windowOver && !outcome.refused ? `Gave up after ${attempt} attempts: ${outcome.error}` : outcome.error;
      const disabled = await recordAttempt(db, {
        deliveryId: row.id, hookId: row.hook_id, attempt, outcome, startedAt, finishedAt, error,
        status: outcome.delivered ? "delivered" : final ? "failed" : "pending",
        nextAttemptAt: final ? null : finishedAt + delay,
        disableAfterMs: config.webhookDisableAfterMs,
        createdAt: Number(row.created_at),
      });
      if (disabled) log.warn("webhook turned off after a run of failed deliveries", { webhook: row.hook_id, error: outcome.error });
      if (!final) throw new DeferJobError(delay);
    },
    async onGiveUp(job, error) {
      await failWithoutAttempt(db, job.subjectId, `Not sent: ${error}`);
    },
  };
}
