// The one place events are emitted (webhooks out). An event becomes outbox rows (webhook_deliveries, one per
// subscribed hook) and a delivery job each, written by statements that go in the SAME batch as the change
// they announce: a change that rolls back announces nothing, and a committed one is never lost (the job
// loop delivers it, at least once). With no hook subscribed, nothing is written: a cached look at the
// enabled hooks decides that without a query on the hot path.
import { sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { ALWAYS, runBatch, type Fragment, type Statement } from "../db/plain";
import { newId } from "../lib/secrets";
import { WEBHOOK_DELIVER_JOB } from "./kinds";

/** Every event a hook may subscribe to. */
export const EVENT_TYPES = ["source.ready", "source.failed", "source.removed", "page.changed", "connector.run.finished"] as const;
export type EventType = (typeof EVENT_TYPES)[number];
/** What "send a test event" sends; not subscribable. */
export const TEST_EVENT = "webhook.test";

export interface AppEvent {
  type: EventType;
  brainId: string;
  /** The ids of what changed; `brainId` is added. */
  data: Record<string, unknown>;
  /** Rows are written only when this holds at commit (e.g. the source is still at the revision written). */
  guard?: Fragment;
  /**
   * What makes this event the same event if it is emitted again (e.g. `source.ready:<id>:<revision>`): a job
   * that re-runs after a crash then adds no second delivery. Without one, each emit is a new event.
   */
  key?: string;
}

/** Crashes (lost leases) in a row before a delivery job is given up; retries after an answer do not count. */
export const DELIVERY_JOB_MAX_CRASHES = 10;
/** How stale the cached view of the enabled hooks may be (another replica's new hook is seen within it). */
export const SUBSCRIPTIONS_TTL_MS = 2_000;

interface Subscriptions {
  loadedAt: number;
  /** Per event type: some hook takes every brain of its account, and the brains hooks name. */
  byType: Map<string, { anyBrain: boolean; brains: Set<string> }>;
}

const cache = new WeakMap<object, { current?: Subscriptions; loading?: Promise<Subscriptions> }>();

/** Forget the cached view (after this process created, changed or deleted a hook). */
export function invalidateSubscriptions(db: Db): void {
  cache.delete(db);
}

async function subscriptions(db: Db): Promise<Subscriptions> {
  let entry = cache.get(db);
  if (!entry) cache.set(db, (entry = {}));
  if (entry.current && Date.now() - entry.current.loadedAt < SUBSCRIPTIONS_TTL_MS) return entry.current;
  entry.loading ??= load(db).finally(() => (entry!.loading = undefined));
  return (entry.current = await entry.loading);
}

async function load(db: Db): Promise<Subscriptions> {
  const loadedAt = Date.now();
  const rows = await db.all<{ events: string; brain_ids: string | null }>(sql`SELECT events, brain_ids FROM webhooks WHERE enabled = 1`);
  const byType: Subscriptions["byType"] = new Map();
  for (const row of rows) {
    const brains: string[] | null = row.brain_ids ? JSON.parse(row.brain_ids) : null;
    for (const type of JSON.parse(row.events) as string[]) {
      let entry = byType.get(type);
      if (!entry) byType.set(type, (entry = { anyBrain: false, brains: new Set() }));
      if (brains === null) entry.anyBrain = true;
      else for (const id of brains) entry.brains.add(id);
    }
  }
  return { loadedAt, byType };
}

/** Whether some enabled hook may want this event (the statements then decide exactly, at commit). */
export async function mayBeSubscribed(db: Db, type: string, brainId: string): Promise<boolean> {
  const entry = (await subscriptions(db)).byType.get(type);
  return !!entry && (entry.anyBrain || entry.brains.has(brainId));
}

/** The body a hook receives, as sent and signed. */
export function eventPayload(type: string, data: Record<string, unknown>, at = Date.now()): string {
  return JSON.stringify({ type, timestamp: new Date(at).toISOString(), data });
}

/**
 * The statements that emit `events`, for the batch that makes the change; [] when no hook wants them.
 * A delivery goes to each enabled hook of the brain's account that takes the event's type and the brain.
 */
export async function eventStatements(db: Db, events: AppEvent[]): Promise<Statement[]> {
  const out: Statement[] = [];
  for (const event of events) {
    if (!(await mayBeSubscribed(db, event.type, event.brainId))) continue;
    const eventId = newId("evt");
    const now = Date.now();
    const guard = event.guard ?? ALWAYS;
    out.push(
      {
        sql: `INSERT OR IGNORE INTO webhook_deliveries (id, hook_id, event_id, dedupe_key, type, brain_id, payload, status, next_attempt_at, created_at)
          SELECT 'msg_' || lower(hex(randomblob(12))), h.id, ?, ?, ?, ?, ?, 'pending', ?, ? FROM webhooks h
          WHERE h.enabled = 1 AND h.account_id = (SELECT account_id FROM brains WHERE id = ?)
            AND EXISTS (SELECT 1 FROM json_each(h.events) WHERE value = ?)
            AND (h.brain_ids IS NULL OR EXISTS (SELECT 1 FROM json_each(h.brain_ids) WHERE value = ?))
            AND ${guard.sql}`,
        args: [eventId, event.key ?? null, event.type, event.brainId, eventPayload(event.type, { ...event.data, brainId: event.brainId }, now), now, now, event.brainId, event.type, event.brainId, ...guard.args],
      },
      deliveryJobsOf(eventId, now),
    );
  }
  return out;
}

/** A delivery job for each outbox row of an event. */
export function deliveryJobsOf(eventId: string, runAfter = Date.now()): Statement {
  return {
    sql: `INSERT INTO jobs (kind, subject_id, payload, max_attempts, run_after)
      SELECT ?, id, '{}', ?, ? FROM webhook_deliveries WHERE event_id = ?`,
    args: [WEBHOOK_DELIVER_JOB, DELIVERY_JOB_MAX_CRASHES, runAfter, eventId],
  };
}

/** Emits events on their own (the change is already committed, or has no statement of its own). */
export async function emitEvent(db: Db, ...events: AppEvent[]): Promise<void> {
  await runBatch(db, await eventStatements(db, events));
}
