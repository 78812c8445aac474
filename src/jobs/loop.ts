// The in-process job loop: claims due jobs with a lease, keeps the lease alive while a handler runs,
// retries with exponential backoff, and on shutdown finishes or hands back what it holds.
import { hostname } from "node:os";
import type { Db } from "../db/client";
import type { Metrics } from "../http/metrics";
import type { Logger } from "../lib/log";
import { randomBase62 } from "../lib/secrets";
import { claimNext, completeStatement, failAttempt, release, renewLease, type Job } from "./queue";

export interface JobHandler {
  kind: string;
  /** Does the work. Throw a PermanentJobError for failures a retry cannot fix. */
  run(job: Job, signal: AbortSignal): Promise<void>;
  /** Called once when the job is given up (attempts used up or a permanent error). */
  onGiveUp(job: Job, error: string): Promise<void>;
  /** Called before each retry, e.g. to show the error on the subject. */
  onRetry?(job: Job, error: string, nextAttemptAt: number): Promise<void>;
}

export class PermanentJobError extends Error {}

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
}): JobLoop {
  const { db, log, concurrency, leaseMs, retryBaseMs } = opts;
  const owner = `${hostname()}:${process.pid}:${randomBase62(6)}`;
  const handlers = new Map(opts.handlers.map((h) => [h.kind, h]));
  const kinds = [...handlers.keys()];
  const inflight = new Map<number, { job: Job; controller: AbortController; done: Promise<void> }>();
  const counters = { completed: 0, failedAttempts: 0 };
  let stopping = false;
  let ticking = false;

  async function tick() {
    if (ticking || stopping) return;
    ticking = true;
    try {
      while (!stopping && inflight.size < concurrency) {
        const job = await claimNext(db, owner, leaseMs, kinds);
        if (!job) break;
        const controller = new AbortController();
        const entry = { job, controller, done: Promise.resolve() };
        inflight.set(job.id, entry);
        entry.done = execute(job, controller).finally(() => {
          inflight.delete(job.id);
          void tick();
        });
      }
    } catch (e) {
      log.error("job claim failed", { error: (e as Error).message });
    } finally {
      ticking = false;
    }
  }

  async function execute(job: Job, controller: AbortController) {
    const handler = handlers.get(job.kind)!;
    // Heartbeat: a third of the lease, so one missed beat never loses the job.
    const heartbeat = setInterval(async () => {
      const ours = await renewLease(db, job, owner, leaseMs).catch(() => true);
      if (!ours) controller.abort(new Error("lease lost"));
    }, Math.max(250, leaseMs / 3));
    try {
      if (job.attempts > job.maxAttempts) throw new PermanentJobError("processing was interrupted too many times");
      await handler.run(job, controller.signal);
      await completeStatement(db, job, owner);
      counters.completed++;
      opts.metrics?.inc("jobs_completed_total", { kind: job.kind });
    } catch (e) {
      if (stopping && controller.signal.aborted) return; // handed back by stop()
      if (e instanceof DeferJobError) {
        await release(db, job, owner, e.delayMs).catch(() => undefined);
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
    } finally {
      clearInterval(heartbeat);
    }
  }

  const poller = setInterval(() => void tick(), opts.pollMs ?? 250);
  void tick();

  return {
    owner,
    wake: () => void tick(),
    stats: () => ({ running: inflight.size, ...counters }),
    async stop(graceMs = 10_000) {
      stopping = true;
      clearInterval(poller);
      const all = Promise.all([...inflight.values()].map((e) => e.done));
      const timedOut = await Promise.race([all.then(() => false), Bun.sleep(graceMs).then(() => true)]);
      if (!timedOut) return;
      for (const { job, controller } of inflight.values()) {
        controller.abort(new Error("shutting down"));
        await release(db, job, owner).catch(() => undefined);
      }
      await all;
    },
  };
}
