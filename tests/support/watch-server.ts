// Watches a server child process while a test feeds it a heavy document: /api/health polled every 100 ms
// (each poll must answer within 1 s), and the child's resident memory sampled, the child killed if it
// passes a ceiling (so a server that would eat the machine fails the test instead).
import { readFileSync } from "node:fs";

export interface ServerWatch {
  /** Longest health answer, ms (a poll that did not answer counts as its timeout). */
  longestHealthMs: number;
  /** Polls that failed or took longer than 1 s. */
  slowPolls: number;
  polls: number;
  /** Highest resident memory of the child seen, bytes. */
  peakRss: number;
  /** Whether the child passed the ceiling and was killed. */
  killed: boolean;
  stop(): Promise<void>;
}

export function rssOf(pid: number): number {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kb ? Number(kb) * 1024 : 0;
  } catch {
    return 0; // the process is gone
  }
}

export function watchServer(url: string, pid: number, ceilingBytes = 3 * 1024 ** 3): ServerWatch {
  let running = true;
  const watch: ServerWatch = { longestHealthMs: 0, slowPolls: 0, polls: 0, peakRss: 0, killed: false, stop: async () => {} };
  const memory = setInterval(() => {
    const rss = rssOf(pid);
    watch.peakRss = Math.max(watch.peakRss, rss);
    if (rss > ceilingBytes && !watch.killed) {
      watch.killed = true;
      process.kill(pid, "SIGKILL");
    }
  }, 50);
  const polling = (async () => {
    while (running) {
      const started = performance.now();
      let ok = false;
      try {
        ok = (await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(1000) })).ok;
      } catch {
        ok = false;
      }
      const took = ok ? performance.now() - started : Math.max(1000, performance.now() - started);
      watch.polls++;
      watch.longestHealthMs = Math.max(watch.longestHealthMs, took);
      if (!ok || took > 1000) watch.slowPolls++;
      await Bun.sleep(100);
    }
  })();
  watch.stop = async () => {
    running = false;
    clearInterval(memory);
    await polling;
  };
  return watch;
}
