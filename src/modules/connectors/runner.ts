// Carries out one run: list the items (once), fetch each queued item (a few at a time), write what changed,
// then prune what the run did not find. Every step is stored as it happens (items.ts), so a run whose
// process dies is picked up by another worker and continues where it was.
import type { RootDb as Db } from "../../db/client";
import type { AllowList, DocumentReader } from "../../ingest";
import { safeFetch } from "../../ingest";
import type { Logger } from "../../lib/log";
import { runBatch, stmt, queryRows } from "../../db/plain";
import { deleteSource } from "../sources/service";
import { kindOf, type ConnectorKind, type FetchOutcome, type KindRun } from "./kinds";
import { countStatement, forgetItemStatement, revisitKnown, itemDoneStatement, pendingItems, queueItems, queueItemsStatements, unseenItems, type Counter, type PendingItem } from "./items";
import { finishRun } from "./runs";
import { ConnectorGoneError, reprocessItemSource, upsertItemSource } from "./source-writes";
import { loadConnector, fullConfig } from "./store";
import type { ConfigEnv, ConnectorFetch } from "./kinds/types";
import { workDirOf } from "./kinds/env";
import type { Connector, ConnectorRun } from "../../db/schema";
import { plainError } from "./plain-errors";

export interface RunnerDeps {
  db: Db;
  log: Logger;
  reader: DocumentReader;
  allowHosts: AllowList;
  /** What configs are checked against (the allow-list, the git and folder roots). */
  configEnv: ConfigEnv;
  /** Each connector's work folder (a Git clone) is under `<dataDir>/connectors/`. */
  dataDir: string;
  fetchTimeoutMs: number;
  fetchMaxBytes: number;
  /** Attempts of the ingest jobs the run's sources get. */
  maxAttempts: number;
  wake(): void;
}

/** Thrown when the run's config no longer parses: a retry cannot fix it. */
export class RunConfigError extends Error {}

interface RunState {
  deps: RunnerDeps;
  connector: Connector;
  run: ConnectorRun;
  kind: ConnectorKind<any>;
  krun: KindRun<any>;
  /** Requests made since the last write of the run's counts. */
  requests: { n: number };
  /** What the kind told the owner, written with the listing. */
  notes: string[];
}

export async function runConnector(deps: RunnerDeps, runId: string, signal: AbortSignal): Promise<void> {
  const { db } = deps;
  const run = (await db.query.connectorRuns.findFirst({ where: (r, { eq }) => eq(r.id, runId) })) ?? null;
  if (!run || run.status === "succeeded" || run.status === "failed" || run.status === "cancelled") return;
  const connector = await loadConnector(db, run.connectorId);
  if (!connector || connector.deleting) return finishRun(db, runId, "cancelled", "The connector was deleted");
  const kind = kindOf(connector.kind);
  let config: unknown;
  try {
    config = kind.parseConfig(await fullConfig(db, connector), deps.configEnv);
  } catch (e) {
    return finishRun(db, runId, "failed", `The connector's settings are not valid: ${(e as Error).message}`);
  }
  await runBatch(db, [stmt("UPDATE connector_runs SET status = 'running', started_at = coalesce(started_at, ?) WHERE id = ?", Date.now(), runId)]);
  const requests = { n: 0 };
  const notes: string[] = [];
  const state: RunState = { deps, connector, run, kind, requests, notes, krun: kindRun(deps, connector, config, signal, requests, notes) };
  try {
    if (run.phase === "list") {
      const listed = await listItems(state);
      if (!listed) return;
    }
    if (run.phase === "list" || run.phase === "fetch") await fetchAll(state, signal);
    await prune(state);
    const [counts] = await queryRows<{ failed: number; ok: number }>(db, "SELECT failed, added + updated + unchanged + removed AS ok FROM connector_runs WHERE id = ?", runId);
    await finishRun(db, runId, counts && counts.failed > 0 && counts.ok === 0 ? "failed" : "succeeded");
  } catch (e) {
    if (e instanceof ConnectorGoneError) return; // deleted meanwhile: its run went with it
    throw e;
  }
}

function kindRun(deps: RunnerDeps, connector: Connector, config: unknown, signal: AbortSignal, requests: { n: number }, notes: string[]): KindRun<any> {
  const headers = ((config as { headers?: Record<string, string> }).headers ?? {}) as Record<string, string>;
  const fetch: ConnectorFetch = async (url, opts = {}) => {
    requests.n++;
    const conditional: Record<string, string> = {};
    if (opts.conditional?.etag) conditional["if-none-match"] = opts.conditional.etag;
    if (opts.conditional?.lastModified) conditional["if-modified-since"] = opts.conditional.lastModified;
    return safeFetch(url, {
      allowHosts: deps.allowHosts,
      timeoutMs: deps.fetchTimeoutMs,
      maxBytes: opts.maxBytes ?? deps.fetchMaxBytes,
      headers: { ...headers, ...conditional },
      allowNotModified: Boolean(opts.conditional),
      signal,
      ...(opts.accept ? { accept: opts.accept } : {}),
    });
  };
  return {
    config,
    connectorId: connector.id,
    brainId: connector.brainId,
    fetch,
    reader: deps.reader,
    log: deps.log,
    signal,
    note: (message) => void notes.push(message),
    workDir: workDirOf(deps.dataDir, connector.id),
    linkSources: () =>
      queryRows<{ id: string; url: string; connectorId: string | null }>(
        deps.db,
        "SELECT id, url, connector_id AS connectorId FROM sources WHERE brain_id = ? AND type = 'link' AND url IS NOT NULL ORDER BY id",
        connector.brainId,
      ),
  };
}

/** Lists the items and queues them, once per run. False when the listing failed (the run is over, nothing pruned). */
async function listItems(s: RunState): Promise<boolean> {
  const { db } = s.deps;
  let refs;
  try {
    refs = await s.kind.list(s.krun);
  } catch (e) {
    await runBatch(db, [countStatement(s.run.id, null, take(s.requests)), ...s.notes.map((note) => countStatement(s.run.id, null, 0, note))]);
    await finishRun(db, s.run.id, "failed", plainError(e));
    return false;
  }
  const max = s.kind.maxItems(s.krun.config);
  if (s.kind.revisitsKnown(s.krun.config)) await revisitKnown(db, s.connector.id, s.run.id, max);
  await queueItems(db, s.connector.id, s.run.id, refs, max);
  await runBatch(db, [
    countStatement(s.run.id, null, take(s.requests)),
    ...s.notes.map((note) => countStatement(s.run.id, null, 0, note)),
    stmt("UPDATE connector_runs SET phase = 'fetch' WHERE id = ?", s.run.id),
  ]);
  return true;
}

const take = (r: { n: number }) => {
  const n = r.n;
  r.n = 0;
  return n;
};

/** Keeps `concurrency` items in flight until the run's frontier is empty. */
async function fetchAll(s: RunState, signal: AbortSignal): Promise<void> {
  const limit = Math.max(1, s.kind.concurrency(s.krun.config));
  const inflight = new Map<string, Promise<void>>();
  // A failure to write (the connector deleted, the disk full) ends the run once the items in flight settle.
  let failure: { error: unknown } | null = null;
  for (;;) {
    if (!failure && signal.aborted) failure = { error: signal.reason };
    if (!failure && inflight.size < limit) {
      const next = await pendingItems(s.deps.db, s.connector.id, s.run.id, limit - inflight.size, new Set(inflight.keys()));
      for (const item of next)
        inflight.set(
          item.itemKey,
          handleItem(s, item)
            .catch((error: unknown) => void (failure ??= { error }))
            .finally(() => inflight.delete(item.itemKey)),
        );
    }
    if (inflight.size === 0) {
      if (failure) throw failure.error;
      // Nothing in flight and nothing was pending: the frontier is empty.
      const more = await pendingItems(s.deps.db, s.connector.id, s.run.id, 1, new Set());
      if (more.length === 0) return;
      continue;
    }
    await Promise.race(inflight.values());
  }
}

async function handleItem(s: RunState, item: PendingItem): Promise<void> {
  const known = item.sourceId || item.version ? { sourceId: item.sourceId, version: item.version } : null;
  let outcome: FetchOutcome | { kind: "failed"; error: string };
  try {
    if (item.ref.version !== undefined && known?.sourceId && known.version === item.ref.version) outcome = { kind: "unchanged" };
    else outcome = await s.kind.fetch(s.krun, item.ref, known);
  } catch (e) {
    if (s.krun.signal.aborted) throw e;
    outcome = { kind: "failed", error: plainError(e) };
  }
  await applyOutcome(s, item, outcome);
}

async function applyOutcome(s: RunState, item: PendingItem, outcome: FetchOutcome | { kind: "failed"; error: string }): Promise<void> {
  const { db } = s.deps;
  const { id: cid } = s.connector;
  const runId = s.run.id;
  const done = (to: Parameters<typeof itemDoneStatement>[3], counter: Counter | null, error?: string) =>
    runBatch(db, [itemDoneStatement(cid, runId, item.itemKey, to), countStatement(runId, counter, take(s.requests), error, true)]);
  const discovered = "discovered" in outcome && outcome.discovered?.length ? outcome.discovered : [];
  if (discovered.length) await runBatch(db, queueItemsStatements(cid, runId, discovered, s.kind.maxItems(s.krun.config)));
  switch (outcome.kind) {
    case "failed":
      // Kept as it was: a page that timed out this once is not removed from the brain.
      return void (await done({ seen: true }, "failed", `${item.ref.url ?? item.itemKey}: ${outcome.error}`));
    case "unchanged":
      return void (await done({ seen: true, ...(outcome.version !== undefined ? { version: outcome.version } : {}) }, "unchanged"));
    case "skipped":
      return void (await done({ seen: false }, null));
    case "content": {
      // A new source is marked done and counted in its own batch; any other change is recorded after it.
      const doneWhenAdded = (sourceId: string) => [
        itemDoneStatement(cid, runId, item.itemKey, { seen: true, sourceId, version: outcome.version }, true),
        countStatement(runId, "added", 0, undefined, true),
      ];
      const { sourceId, change } = await upsertItemSource(s.deps, s.connector, item.itemKey, outcome.source, doneWhenAdded);
      if (change === "added") return;
      return void (await done({ seen: true, sourceId, version: outcome.version }, change));
    }
    case "reprocess": {
      const sourceId = item.sourceId ?? (typeof item.ref.hint?.sourceId === "string" ? item.ref.hint.sourceId : null);
      if (sourceId) await reprocessItemSource(s.deps, cid, sourceId);
      return void (await done({ seen: true, version: outcome.version }, "updated"));
    }
    case "gone": {
      if (!s.kind.prunes(s.krun.config) || !s.kind.ownsSources) return void (await done({ seen: true }, "unchanged"));
      if (item.sourceId) await removeSource(s.deps.db, s.connector.brainId, item.sourceId);
      return void (await done({ seen: false, sourceId: null }, item.sourceId ? "removed" : null));
    }
  }
}

async function removeSource(db: Db, brainId: string, sourceId: string): Promise<void> {
  await deleteSource(db, brainId, sourceId).catch((e: unknown) => {
    if ((e as { code?: string }).code !== "not_found") throw e;
  });
}

/** Removes what the run did not find (unless the connector keeps it), then forgets those items. */
async function prune(s: RunState): Promise<void> {
  const { db } = s.deps;
  await runBatch(db, [stmt("UPDATE connector_runs SET phase = 'prune' WHERE id = ?", s.run.id)]);
  const removes = s.kind.ownsSources && s.kind.prunes(s.krun.config);
  for (;;) {
    s.krun.signal.throwIfAborted(); // a worker that lost its lease stops here too
    const unseen = await unseenItems(db, s.connector.id, s.run.id, 200);
    if (unseen.length === 0) return;
    for (const item of unseen) {
      const removed = removes && item.source_id !== null;
      if (removed) await removeSource(db, s.connector.brainId, item.source_id!);
      await runBatch(db, [forgetItemStatement(s.connector.id, item.item_key), ...(removed ? [countStatement(s.run.id, "removed", 0, undefined, true)] : [])]);
    }
  }
}
