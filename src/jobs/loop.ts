// The in-process job loop: claims due jobs with a lease, keeps the lease alive while a handler runs,
// retries with exponential backoff, and on shutdown finishes or hands back what it holds. Handlers that can
// take several jobs at once (runBatch) get up to `batchSize` per claim: one claim, one heartbeat, one
// completion and (in the handler) one write transaction for the lot, instead of one of each per job.
import { hostname } from "node:os";
import type { Db } from "../db/client";
import type { Metrics } from "../http/metrics";
import type { Logger } from "../lib/log";
import { randomBase62 } from "../lib/secrets";
import { isStorageFull } from "../lib/db-errors";
import { claimDue, completeMany, failAttempt, pruneDone, release, renewLeases, type Job } from "../queue";

/** Finished jobs are kept this long after they were due (to see what ran), then forgotten (pruneDone). */
export const DONE_RETENTION_MS = 24 * 3600_000;
/** How often a loop forgets old finished jobs, and how many at most each time (a short write: a few ms). */
const PRUNE_EVERY_MS = 10_000;
const PRUNE_LIMIT = 1_000;

export interface JobHandler {
  kind: string;
  /** Does the work. Throw a PermanentJobError for failures a retry cannot fix. */
  run(job: Job, signal: AbortSignal): Promise<void>;
  /** Called once when the job is given up (attempts used up or a permanent error). */
  onGiveUp(job: Job, error: string): Promise<void>;
  /** Called before each retry, e.g. to show the error on the subject. */
  onRetry?(job: Job, error: string, nextAttemptAt: number): Promise<void>;
  /**
   * Several jobs of this kind at once; the answer holds, per job in order, undefined for done or the error
   * `run` would have thrown. A throw fails every job of the batch. `yieldSlot`: what is left of the batch
   * waits on work shared with other units (a brain's concept refresh), so it no longer counts against the
   * loop's concurrency and another unit may start.
   */
  runBatch?(jobs: Job[], signal: AbortSignal, yieldSlot: () => void): Promise<(unknown | undefined)[]>;
  /** Jobs per runBatch call (default 1: `run` only). */
  batchSize?: number;
  /** Frees what the handler holds (threads) once the loop has stopped. */
  close?(): void;
}

export class PermanentJobError extends Error {}

export interface PeriodicTask {
  name: string;
  everyMs: number;
  /** True when it enqueued work the loop should claim now. */
  run(): Promise<boolean>;
}

/** How long a job that met a full disk waits before it runs again. */
const DISK_FULL_RETRY_MS = 5_000;

/** Not a failure: the job is waiting for something (e.g. an upload) and should be tried again later. */
export class DeferJobError extends Error {
  constructor(readonly delayMs: number) {
    super("deferred");
  }
}

export interface JobLoop {
  owner: string;
  /** Look for work now instead of at the next poll. */
  wake(): void;
  /** Stops claiming; waits up to `graceMs` for running jobs, then hands the rest back to the queue. */
  stop(graceMs?: number): Promise<void>;
  stats(): { running: number; completed: number; failedAttempts: number };
}

export function startJobLoop(opts: {
  db: Db;
  log: Logger;
  handlers: JobHandler[];
  concurrency: number;
  leaseMs: number;
  retryBaseMs: number;
  pollMs?: number;
  metrics?: Metrics;
  /** How long finished jobs are kept (DONE_RETENTION_MS). */
  doneRetentionMs?: number;
  /** Work the loop does every so often besides claiming (a scheduler enqueueing due jobs); true: wake now. */
  tasks?: PeriodicTask[];
}): JobLoop {
  const { db, log, concurrency, leaseMs, retryBaseMs } = opts;
  const owner = `${hostname()}:${process.pid}:${randomBase62(6)}`;
  const handlers = new Map(opts.handlers.map((h) => [h.kind, h]));
  const kinds = [...handlers.keys()];
  // One entry per running unit (a job, or a batch of jobs of one kind), keyed by its first job's id.
  const inflight = new Map<number, { jobs: Job[]; controller: AbortController; done: Promise<void>; yielded: boolean }>();
  /** Units of `inflight` that gave up their slot (runBatch's yieldSlot). */
  let yielded = 0;
  const counters = { completed: 0, failedAttempts: 0 };
  const claimSize = Math.max(1, ...opts.handlers.map((h) => (h.runBatch ? (h.batchSize ?? 1) : 1)));
  let stopping = false;
  let ticking = false;
  let prunedAt = -Infinity;
  const doneRetentionMs = opts.doneRetentionMs ?? DONE_RETENTION_MS;

  /** Forgets old finished jobs, once a PRUNE_EVERY_MS (every replica may: the delete is idempotent). */
  async function prune() {
    const now = Date.now();
    if (now - prunedAt < PRUNE_EVERY_MS) return;
    prunedAt = now;
    try {
      await pruneDone(db, now - doneRetentionMs, PRUNE_LIMIT);
    } catch (e) {
      log.warn("forgetting finished jobs failed; tried again later", { error: (e as Error).message });
    }
  }

  async function tick() {
    if (ticking || stopping) return;
    ticking = true;
    try {
      while (!stopping && inflight.size - yielded < concurrency) {
        // A job of ours whose lease ran out while it runs (its heartbeats missed) is not claimed again: the
        // run under way keeps it, and its next heartbeat renews the lease.
        const claimed = await claimDue(db, owner, leaseMs, kinds, claimSize, runningHere());
        if (claimed.length === 0) break;
        for (const unit of units(claimed)) start(unit);
      }
    } catch (e) {
      log.error("job claim failed", { error: (e as Error).message });
    } finally {
      ticking = false;
    }
  }

  const runningHere = () => [...inflight.values()].flatMap((entry) => entry.jobs.map((j) => j.id));

  /** Jobs of a batch-capable kind go together (up to its batch size); every other job runs alone. */
  function units(claimed: Job[]): Job[][] {
    const out: Job[][] = [];
    const byKind = new Map<string, Job[]>();
    for (const job of claimed) {
      const handler = handlers.get(job.kind)!;
      if (!handler.runBatch) {
        out.push([job]);
        continue;
      }
      let group = byKind.get(job.kind);
      if (!group || group.length >= (handler.batchSize ?? 1)) byKind.set(job.kind, (group = [])) && out.push(group);
      group.push(job);
    }
    return out;
  }

  function start(unit: Job[]) {
    const controller = new AbortController();
    const entry = { jobs: unit, controller, done: Promise.resolve(), yielded: false };
    const key = unit[0]!.id;
    inflight.set(key, entry);
    const yieldSlot = () => {
      if (entry.yielded) return;
      entry.yielded = true;
      yielded++;
      void tick();
    };
    entry.done = execute(unit, controller, yieldSlot).finally(() => {
      inflight.delete(key);
      if (entry.yielded) yielded--;
      void tick();
    });
  }

  async function execute(unit: Job[], controller: AbortController, yieldSlot: () => void) {
    const handler = handlers.get(unit[0]!.kind)!;
    const ids = unit.map((j) => j.id);
    // Heartbeat: a third of the lease, so one missed beat never loses the jobs.
    const heartbeat = setInterval(async () => {
      const ours = await renewLeases(db, ids, owner, leaseMs).catch(() => new Set(ids));
      if (ours.size < ids.length) controller.abort(new Error("lease lost"));
    }, Math.max(250, leaseMs / 3));
    try {
      const worn = unit.filter((j) => j.attempts > j.maxAttempts);
      const fresh = unit.filter((j) => j.attempts <= j.maxAttempts);
      let errors: (unknown | undefined)[];
      try {
        if (fresh.length === 0) errors = [];
        else if (handler.runBatch) errors = await handler.runBatch(fresh, controller.signal, yieldSlot);
        else errors = await handler.run(fresh[0]!, controller.signal).then(() => [undefined], (e) => [e]);
      } catch (e) {
        errors = fresh.map(() => e);
      }
      const done = fresh.filter((_, i) => errors[i] === undefined);
      if (done.length) {
        await completeMany(db, done.map((j) => j.id), owner);
        counters.completed += done.length;
        opts.metrics?.inc("jobs_completed_total", { kind: handler.kind }, done.length);
      }
      for (const job of worn) await settleFailure(handler, job, new PermanentJobError("processing was interrupted too many times"), controller);
      for (const [i, job] of fresh.entries()) if (errors[i] !== undefined) await settleFailure(handler, job, errors[i], controller);
    } finally {
      clearInterval(heartbeat);
    }
  }

  /** A full disk is logged once a minute, not once a job. */
  let diskFullLoggedAt = -Infinity;

  async function settleFailure(handler: JobHandler, job: Job, e: unknown, controller: AbortController) {
    if (stopping && controller.signal.aborted) return; // handed back by stop()
    if (e instanceof DeferJobError) {
      await release(db, job, owner, e.delayMs).catch(() => undefined);
      return;
    }
    // A full disk is the server's fault, not the job's: a long outage must not use up its attempts. It waits
    // and runs again once space is back (a release that cannot be written lets its lease run out instead).
    if (isStorageFull(e)) {
      if (Date.now() - diskFullLoggedAt > 60_000) log.warn("jobs wait for disk space", { job: job.id, kind: job.kind, error: (e as Error).message });
      diskFullLoggedAt = Date.now();
      await release(db, job, owner, Math.min(retryBaseMs * 8, DISK_FULL_RETRY_MS)).catch(() => undefined);
      return;
    }
    counters.failedAttempts++;
    opts.metrics?.inc("job_attempts_failed_total", { kind: job.kind });
    const message = (e as Error)?.message ?? String(e);
    const final = e instanceof PermanentJobError || job.attempts >= job.maxAttempts;
    const delay = Math.min(retryBaseMs * 2 ** (job.attempts - 1), 300_000);
    log.warn("job attempt failed", { job: job.id, kind: job.kind, attempt: job.attempts, final, error: message });
    try {
      await failAttempt(db, job, owner, message, delay, final);
      if (final) await handler.onGiveUp(job, message);
      else await handler.onRetry?.(job, message, Date.now() + delay);
    } catch (inner) {
      log.error("recording a job failure failed", { job: job.id, error: (inner as Error).message });
    }
  }

  const taskState = (opts.tasks ?? []).map((task) => ({ task, lastAt: -Infinity, running: false }));
  /** Runs the periodic tasks that are due, one call of each at a time; a failure is logged and tried again next time. */
  function runTasks() {
    const now = Date.now();
    for (const state of taskState) {
      if (state.running || now - state.lastAt < state.task.everyMs) continue;
      state.lastAt = now;
      state.running = true;
      state.task
        .run()
        .then((enqueued) => enqueued && void tick())
        .catch((e: unknown) => log.warn("a periodic job task failed; tried again later", { task: state.task.name, error: (e as Error).message }))
        .finally(() => (state.running = false));
    }
  }

  const poller = setInterval(() => {
    void tick();
    if (!stopping) {
      void prune();
      runTasks();
    }
  }, opts.pollMs ?? 250);
  void tick();

  return {
    owner,
    wake: () => void tick(),
    stats: () => ({ running: [...inflight.values()].reduce((n, e) => n + e.jobs.length, 0), ...counters }),
    async stop(graceMs = 10_000) {
      stopping = true;
      clearInterval(poller);
      const all = Promise.all([...inflight.values()].map((e) => e.done));
      const timedOut = await Promise.race([all.then(() => false), Bun.sleep(graceMs).then(() => true)]);
      if (timedOut) {
        for (const { jobs, controller } of inflight.values()) {
          controller.abort(new Error("shutting down"));
          for (const job of jobs) await release(db, job, owner).catch(() => undefined);
        }
        await all;
      }
      for (const handler of handlers.values()) handler.close?.();
    },
  };
}
