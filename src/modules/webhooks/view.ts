// The wire shapes of a hook and of its delivery log (times as ISO strings; the secret never, after creation).
import type { Webhook } from "../../db/schema";

const iso = (ms: number | null | undefined) => (ms === null || ms === undefined ? null : new Date(Number(ms)).toISOString());

export type WebhookView = ReturnType<typeof webhookView>;

export function webhookView(h: Webhook) {
  return {
    id: h.id,
    url: h.url,
    events: h.events,
    brainIds: h.brainIds ?? null,
    enabled: h.enabled,
    disabledReason: h.disabledReason ?? null,
    failingSince: iso(h.failingSince),
    createdAt: iso(h.createdAt)!,
    updatedAt: iso(h.updatedAt)!,
  };
}

export interface DeliveryRow {
  id: string;
  type: string;
  brain_id: string | null;
  status: string;
  attempts: number;
  status_code: number | null;
  error: string | null;
  created_at: number;
  last_attempt_at: number | null;
  next_attempt_at: number | null;
  delivered_at: number | null;
}

export interface AttemptRow {
  delivery_id: string;
  attempt: number;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  at: number;
}

export function deliveryView(d: DeliveryRow, attempts: AttemptRow[]) {
  return {
    id: d.id,
    event: d.type,
    brainId: d.brain_id ?? null,
    status: d.status,
    attempts: Number(d.attempts),
    statusCode: d.status_code === null ? null : Number(d.status_code),
    error: d.error ?? null,
    createdAt: iso(d.created_at)!,
    lastAttemptAt: iso(d.last_attempt_at),
    nextAttemptAt: iso(d.next_attempt_at),
    deliveredAt: iso(d.delivered_at),
    log: attempts.map((a) => ({
      attempt: Number(a.attempt),
      statusCode: a.status_code === null ? null : Number(a.status_code),
      error: a.error ?? null,
      durationMs: Number(a.duration_ms),
      at: iso(a.at)!,
    })),
  };
}
