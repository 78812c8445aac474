// Connectors of a brain: create, list, read, change, delete (with or without their sources), sync now.
// The behaviour only; the routes (index.ts) check who may call.
import { and, asc, eq } from "drizzle-orm";
import type { RootDb as Db } from "../../db/client";
import { connectors, type Connector } from "../../db/schema";
import { queryRows, runBatch, stmt } from "../../db/plain";
import { AppError, invalid, notFound } from "../../lib/errors";
import { newTimeOrderedId } from "../../lib/secrets";
import { deleteSource } from "../sources/service";
import { kindOf } from "./kinds";
import type { ConfigEnv } from "./kinds/types";
import { lastRun, runView, startRun, type RunView } from "./runs";
import { maskSecrets, openSecrets, sealSecrets, splitSecrets } from "./secrets";
import { nextRunAfter, parseSchedule, scheduleText } from "./schedule";
import { fullConfig } from "./store";
import { CONNECTOR_SYNC_JOB } from "../../queue/kinds";

export interface ConnectorView {
  id: string;
  brainId: string;
  kind: string;
  name: string;
  config: Record<string, unknown>;
  /** Which secret settings are set: each value shown as "set", never the value. */
  secrets: Record<string, unknown>;
  schedule: string;
  paused: boolean;
  nextRunAt: string | null;
  lastRun: RunView | null;
  createdAt: string;
  updatedAt: string;
}

export interface ConnectorInput {
  kind?: unknown;
  name?: unknown;
  config?: unknown;
  schedule?: unknown;
  paused?: unknown;
}

const MAX_NAME = 200;

function nameOf(raw: unknown): string {
  if (typeof raw !== "string" || !raw.trim()) throw invalid("name", "name must be a non-empty string");
  if (raw.trim().length > MAX_NAME) throw invalid("name", `name must be at most ${MAX_NAME} characters`);
  return raw.trim();
}

function configObject(raw: unknown): Record<string, unknown> {
  if (raw === undefined) return {};
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw invalid("config", "config must be a JSON object");
  return raw as Record<string, unknown>;
}

export async function connectorView(db: Db, c: Connector): Promise<ConnectorView> {
  const run = await lastRun(db, c.id);
  return {
    id: c.id,
    brainId: c.brainId,
    kind: c.kind,
    name: c.name,
    config: JSON.parse(c.config) as Record<string, unknown>,
    secrets: maskSecrets(await openSecrets(db, c.secrets)),
    schedule: c.schedule,
    paused: c.paused,
    nextRunAt: c.nextRunAt === null ? null : new Date(c.nextRunAt).toISOString(),
    lastRun: run ? runView(run) : null,
    createdAt: new Date(c.createdAt).toISOString(),
    updatedAt: new Date(c.updatedAt).toISOString(),
  };
}

/** Validates a whole config through its kind; returns the public part as stored and the sealed secrets. */
async function sealedConfig(db: Db, env: ConfigEnv, kindName: string, config: Record<string, unknown>) {
  const kind = kindOf(kindName);
  kind.parseConfig(config, env);
  const { open, secret } = splitSecrets(config, kind.secretKeys);
  return { config: JSON.stringify(open), secrets: await sealSecrets(db, secret) };
}

/** A scheduled connector's first run is due at once; a manual or paused one has none. */
const firstRunAt = (schedule: string, paused: boolean) => (paused || parseSchedule(schedule).kind === "manual" ? null : Date.now());

export async function createConnector(db: Db, env: ConfigEnv, brainId: string, input: ConnectorInput): Promise<Connector> {
  const kind = kindOf(input.kind);
  const name = nameOf(input.name);
  const schedule = scheduleText(parseSchedule(input.schedule));
  const paused = input.paused === true;
  if (kind.kind === "links") {
    const [other] = await queryRows<{ id: string }>(db, "SELECT id FROM connectors WHERE brain_id = ? AND kind = 'links' AND deleting = 0", brainId);
    if (other) throw new AppError("conflict", "This brain already has a links connector: change its schedule instead", { field: "kind", connectorId: other.id });
  }
  const sealed = await sealedConfig(db, env, kind.kind, configObject(input.config));
  const now = Date.now();
  const id = newTimeOrderedId("con");
  await db.insert(connectors).values({ id, brainId, kind: kind.kind, name, ...sealed, schedule, paused, nextRunAt: firstRunAt(schedule, paused), createdAt: now, updatedAt: now });
  return (await getConnector(db, brainId, id))!;
}

export async function getConnector(db: Db, brainId: string, id: string): Promise<Connector | undefined> {
  return db.query.connectors.findFirst({ where: and(eq(connectors.id, id), eq(connectors.brainId, brainId), eq(connectors.deleting, false)) });
}

export async function requireConnector(db: Db, brainId: string, id: string): Promise<Connector> {
  const c = await getConnector(db, brainId, id);
  if (!c) throw notFound("Connector");
  return c;
}

export async function listConnectors(db: Db, brainId: string): Promise<Connector[]> {
  return db.query.connectors.findMany({
    where: and(eq(connectors.brainId, brainId), eq(connectors.deleting, false)),
    orderBy: [asc(connectors.createdAt), asc(connectors.id)],
  });
}

/**
 * Changes a connector. A config replaces the public settings; secret keys left out keep their value, a
 * secret key set to null is removed, so a form that never shows secrets can still be sent back as it is.
 */
export async function patchConnector(db: Db, env: ConfigEnv, brainId: string, id: string, input: ConnectorInput): Promise<Connector> {
  const c = await requireConnector(db, brainId, id);
  if (input.kind !== undefined && input.kind !== c.kind) throw invalid("kind", "a connector's kind cannot change: create another connector");
  const set: Partial<Connector> = { updatedAt: Date.now() };
  if (input.name !== undefined) set.name = nameOf(input.name);
  if (input.paused !== undefined) {
    if (typeof input.paused !== "boolean") throw invalid("paused", "paused must be true or false");
    set.paused = input.paused;
  }
  if (input.schedule !== undefined) set.schedule = scheduleText(parseSchedule(input.schedule));
  if (input.config !== undefined) {
    const kind = kindOf(c.kind);
    const given = configObject(input.config);
    const old = await fullConfig(db, c);
    const merged: Record<string, unknown> = { ...given };
    for (const key of kind.secretKeys) {
      if (!(key in given)) {
        if (key in old) merged[key] = old[key];
      } else if (given[key] === null) delete merged[key];
    }
    Object.assign(set, await sealedConfig(db, env, c.kind, merged));
  }
  if (set.schedule !== undefined || set.paused !== undefined) {
    const schedule = set.schedule ?? c.schedule;
    const paused = set.paused ?? c.paused;
    set.nextRunAt = paused ? null : (nextRunAfter(parseSchedule(schedule), Date.now()) ?? null);
  }
  await db.update(connectors).set(set).where(eq(connectors.id, c.id));
  return (await getConnector(db, brainId, id))!;
}

/**
 * Deletes a connector. It is marked first, so a run still going writes nothing more; then its sources go
 * (removeSources) or stay as ordinary sources of the brain; then the connector with its runs and items.
 */
export async function deleteConnector(db: Db, brainId: string, id: string, removeSources: boolean): Promise<{ removedSources: number }> {
  const c = await requireConnector(db, brainId, id);
  await runBatch(db, [stmt("UPDATE connectors SET deleting = 1, next_run_at = NULL WHERE id = ?", c.id)]);
  let removed = 0;
  if (removeSources) {
    for (;;) {
      const rows = await queryRows<{ id: string }>(db, "SELECT id FROM sources WHERE connector_id = ? LIMIT 100", c.id);
      if (rows.length === 0) break;
      for (const row of rows) {
        await deleteSource(db, brainId, row.id).catch((e: unknown) => {
          if ((e as AppError).code !== "not_found") throw e; // removed meanwhile
        });
        removed++;
      }
    }
  }
  await runBatch(db, [
    stmt("DELETE FROM jobs WHERE kind = ? AND subject_id = ? AND status = 'queued'", CONNECTOR_SYNC_JOB, c.id),
    stmt("DELETE FROM connectors WHERE id = ?", c.id),
  ]);
  return { removedSources: removed };
}

/** Runs the connector now; 409 when it is already syncing. */
export async function syncNow(db: Db, brainId: string, id: string) {
  const c = await requireConnector(db, brainId, id);
  return startRun(db, c.id, "manual");
}
