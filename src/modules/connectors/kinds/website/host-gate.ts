// Politeness per host: at most `concurrency` requests to one host at once, and `delayMs` between the
// starts of two of them.
export class HostGate {
  private readonly hosts = new Map<string, { active: number; lastStart: number; waiting: (() => void)[] }>();
  constructor(private readonly concurrency: number) {}

  async run<T>(host: string, delayMs: number, work: () => Promise<T>, signal: AbortSignal): Promise<T> {
    let h = this.hosts.get(host);
    if (!h) this.hosts.set(host, (h = { active: 0, lastStart: 0, waiting: [] }));
    while (h.active >= (delayMs > 0 ? 1 : this.concurrency)) await new Promise<void>((resolve) => h!.waiting.push(resolve));
    h.active++;
    try {
      const wait = h.lastStart + delayMs - Date.now();
      if (wait > 0) await Bun.sleep(wait);
      signal.throwIfAborted();
      h.lastStart = Date.now();
      return await work();
    } finally {
      h.active--;
      h.waiting.shift()?.();
    }
  }
}
