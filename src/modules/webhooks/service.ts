// Webhooks out: an account's hooks (CRUD), "send a test event" and the delivery log. Delivery itself is the
// webhook-deliver job (jobs/webhook-deliver); events are emitted by queue/events.ts where state changes.
import { randomBytes } from "node:crypto";
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import type { RootDb } from "../../db/client";
import { brains, webhooks, type Webhook } from "../../db/schema";
import { queryRows, runBatch, stmt } from "../../db/plain";
import { sealText } from "../../db/sealed";
import { isIngestError, vetPostTarget, type AllowList } from "../../ingest";
import { invalid, notFound } from "../../lib/errors";
import { newId } from "../../lib/secrets";
import { deliveryJobsOf, eventPayload, EVENT_TYPES, invalidateSubscriptions, TEST_EVENT } from "../../queue/events";
import type { CreateWebhook, UpdateWebhook } from "./model";
import { deliveryView, webhookView, type AttemptRow, type DeliveryRow } from "./view";

export interface Deps {
  db: RootDb;
  allowHosts: AllowList;
  /** Bound of the DNS look-up that vets a URL. */
  vetTimeoutMs: number;
  wake(): void;
}

/** Hooks one account may have. */
export const MAX_WEBHOOKS = 25;
/** Deliveries the log shows by default. */
const DEFAULT_LOG_SIZE = 50;

/** A Standard Webhooks secret: `whsec_` and 32 random bytes in base64. */
const newSecret = () => `whsec_${randomBytes(32).toString("base64")}`;

export async function requireWebhook(db: RootDb, accountId: string, id: string): Promise<Webhook> {
  const hook = await db.query.webhooks.findFirst({ where: and(eq(webhooks.id, id), eq(webhooks.accountId, accountId)) });
  if (!hook) throw notFound("Webhook");
  return hook;
}

function checkEvents(events: string[]): string[] {
  for (const e of events)
    if (!(EVENT_TYPES as readonly string[]).includes(e)) throw invalid("events", `events: unknown event ${JSON.stringify(e)}; known: ${EVENT_TYPES.join(", ")}`);
  return [...new Set(events)];
}

/** The URL as the delivery will see it: http(s), no credentials in it, an address the SSRF rules allow. */
async function checkUrl(deps: Deps, raw: string): Promise<string> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid("url", `url: not a valid URL: ${JSON.stringify(raw)}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw invalid("url", `url: must be http or https, not ${url.protocol}`);
  if (url.username || url.password) throw invalid("url", "url: must not carry a user name or password; the signature authenticates the sender");
  url.hash = "";
  try {
    await vetPostTarget(url.href, deps.allowHosts, deps.vetTimeoutMs);
  } catch (e) {
    if (isIngestError(e)) throw invalid("url", `url: ${e.message}`);
    throw e;
  }
  return url.href;
}

async function checkBrains(db: RootDb, accountId: string, ids: string[] | null | undefined): Promise<string[] | null> {
  if (!ids) return null;
  const unique = [...new Set(ids)];
  if (unique.length === 0) throw invalid("brainIds", "brainIds: name at least one brain, or null for every brain");
  const owned = await db.select({ id: brains.id }).from(brains).where(and(eq(brains.accountId, accountId), inArray(brains.id, unique)));
  const mine = new Set(owned.map((b) => b.id));
  const other = unique.find((id) => !mine.has(id));
  if (other !== undefined) throw invalid("brainIds", `brainIds: no brain ${JSON.stringify(other)} of yours`);
  return unique;
}

export async function createWebhook(deps: Deps, accountId: string, body: CreateWebhook) {
  const { db } = deps;
  const events = checkEvents(body.events);
  const url = await checkUrl(deps, body.url);
  const brainIds = await checkBrains(db, accountId, body.brainIds);
  const [count] = await db.all<{ n: number }>(sql`SELECT count(*) AS n FROM ${webhooks} WHERE account_id = ${accountId}`);
  if (Number(count?.n ?? 0) >= MAX_WEBHOOKS) throw invalid("url", `An account may have at most ${MAX_WEBHOOKS} webhooks; delete one first`);
  const secret = newSecret();
  // Stored sealed (as connectors' secrets are): a copy of the database does not hand out signing secrets.
  const [hook] = await db.insert(webhooks).values({ id: newId("wh"), accountId, url, events, brainIds, secret: await sealText(db, secret) }).returning();
  invalidateSubscriptions(db);
  return { webhook: webhookView(hook!), secret };
}

export async function listWebhooks(db: RootDb, accountId: string) {
  const rows = await db.select().from(webhooks).where(eq(webhooks.accountId, accountId)).orderBy(desc(webhooks.createdAt), webhooks.id);
  return rows.map(webhookView);
}

export async function updateWebhook(deps: Deps, accountId: string, id: string, body: UpdateWebhook) {
  const { db } = deps;
  await requireWebhook(db, accountId, id);
  const changes: Partial<Webhook> = { updatedAt: Date.now() };
  if (body.events !== undefined) changes.events = checkEvents(body.events);
  if (body.url !== undefined) changes.url = await checkUrl(deps, body.url);
  if (body.brainIds !== undefined) changes.brainIds = await checkBrains(db, accountId, body.brainIds);
  if (body.enabled !== undefined) {
    changes.enabled = body.enabled;
    // Turned on again by the owner: the server's reason and the run of failures are behind it.
    if (body.enabled) Object.assign(changes, { disabledReason: null, failingSince: null });
    else changes.disabledReason = null;
  }
  const [hook] = await db.update(webhooks).set(changes).where(and(eq(webhooks.id, id), eq(webhooks.accountId, accountId))).returning();
  invalidateSubscriptions(db);
  return webhookView(hook!);
}

/** Deletes the hook with its log; its pending deliveries are dropped (their jobs find nothing and end). */
export async function deleteWebhook(db: RootDb, accountId: string, id: string): Promise<void> {
  await requireWebhook(db, accountId, id);
  await db.delete(webhooks).where(and(eq(webhooks.id, id), eq(webhooks.accountId, accountId)));
  invalidateSubscriptions(db);
}

/** Queues a `webhook.test` delivery to this hook (sent even while it is turned off, to check it first). */
export async function sendTestEvent(deps: Deps, accountId: string, id: string) {
  const { db } = deps;
  const hook = await requireWebhook(db, accountId, id);
  const eventId = newId("evt");
  const deliveryId = `msg_${randomBytes(12).toString("hex")}`;
  const now = Date.now();
  const payload = eventPayload(TEST_EVENT, { webhookId: hook.id, message: "A test event from Brainbox" }, now);
  await runBatch(db, [
    stmt(
      "INSERT INTO webhook_deliveries (id, hook_id, event_id, type, brain_id, payload, status, next_attempt_at, created_at) VALUES (?, ?, ?, ?, NULL, ?, 'pending', ?, ?)",
      deliveryId, hook.id, eventId, TEST_EVENT, payload, now, now,
    ),
    deliveryJobsOf(eventId, now),
  ]);
  deps.wake();
  return (await listDeliveries(db, accountId, id, 1, deliveryId))[0]!;
}

/** The delivery log, newest first, each delivery with its attempts. */
export async function listDeliveries(db: RootDb, accountId: string, id: string, limit = DEFAULT_LOG_SIZE, only?: string) {
  await requireWebhook(db, accountId, id);
  const rows = only
    ? await queryRows<DeliveryRow>(db, "SELECT * FROM webhook_deliveries WHERE id = ? AND hook_id = ?", only, id)
    : await queryRows<DeliveryRow>(db, "SELECT * FROM webhook_deliveries WHERE hook_id = ? ORDER BY created_at DESC, id DESC LIMIT ?", id, limit);
  if (rows.length === 0) return [];
  const attempts = await queryRows<AttemptRow>(
    db,
    "SELECT a.* FROM json_each(?) j CROSS JOIN webhook_attempts a ON a.delivery_id = j.value ORDER BY a.attempt",
    JSON.stringify(rows.map((r) => r.id)),
  );
  return rows.map((d) => deliveryView(d, attempts.filter((a) => a.delivery_id === d.id)));
}
