// A small Prometheus registry: counters, gauges read at scrape time, and latency histograms. Labels are
// bounded by construction (route templates, status classes), never raw paths or ids.
type Labels = Record<string, string>;

const render = (labels: Labels) =>
  Object.entries(labels)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k}="${v.replace(/["\\\n]/g, "_")}"`)
    .join(",");
// Rendering sorts and escapes; the same label sets recur on every request, so remember each rendering.
const rendered = new Map<string, string>();
const key = (labels: Labels) => {
  let id = "";
  for (const k in labels) id += `${k}\u0000${labels[k]}\u0001`;
  let k = rendered.get(id);
  if (k === undefined) {
    k = render(labels);
    if (rendered.size < 100_000) rendered.set(id, k);
  }
  return k;
};

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export interface Metrics {
  inc(name: string, labels?: Labels, by?: number): void;
  observe(name: string, seconds: number, labels?: Labels): void;
  /** One counter series with its labels bound once, for hot paths (the edge counts every request). */
  counter(name: string, labels?: Labels): { inc(by?: number): void };
  /** One histogram series with its labels bound once. */
  histogram(name: string, labels?: Labels): { observe(seconds: number): void };
  /** A gauge computed when /metrics is scraped (e.g. the job queue depth from the database). */
  gauge(name: string, help: string, read: () => Promise<Array<{ labels: Labels; value: number }>>): void;
  render(): Promise<string>;
}

/** Counts per bucket (not cumulative: one increment per observation); rendering adds them up. */
type Histogram = { counts: number[]; sum: number; count: number };

function record(h: Histogram, seconds: number) {
  let i = 0;
  while (i < LATENCY_BUCKETS.length && seconds > LATENCY_BUCKETS[i]!) i++;
  if (i < LATENCY_BUCKETS.length) h.counts[i]!++;
  h.sum += seconds;
  h.count++;
}

export function createMetrics(help: Record<string, string> = {}): Metrics {
  const counters = new Map<string, Map<string, { value: number }>>();
  const histograms = new Map<string, Map<string, Histogram>>();
  const gauges: Array<{ name: string; help: string; read: () => Promise<Array<{ labels: Labels; value: number }>> }> = [];
  const counterOf = (name: string, labels: Labels) => {
    let series = counters.get(name);
    if (!series) counters.set(name, (series = new Map()));
    const k = key(labels);
    let c = series.get(k);
    if (!c) series.set(k, (c = { value: 0 }));
    return c;
  };
  const histogramOf = (name: string, labels: Labels) => {
    let series = histograms.get(name);
    if (!series) histograms.set(name, (series = new Map()));
    const k = key(labels);
    let h = series.get(k);
    if (!h) series.set(k, (h = { counts: LATENCY_BUCKETS.map(() => 0), sum: 0, count: 0 }));
    return h;
  };

  return {
    inc(name, labels = {}, by = 1) {
      counterOf(name, labels).value += by;
    },
    observe(name, seconds, labels = {}) {
      record(histogramOf(name, labels), seconds);
    },
    counter(name, labels = {}) {
      const c = counterOf(name, labels);
      return {
        inc(by = 1) {
          c.value += by;
        },
      };
    },
    histogram(name, labels = {}) {
      const h = histogramOf(name, labels);
      return { observe: (seconds: number) => record(h, seconds) };
    },
    gauge(name, helpText, read) {
      gauges.push({ name, help: helpText, read });
    },
    async render() {
      const lines: string[] = [];
      for (const [name, series] of counters) {
        lines.push(`# HELP ${name} ${help[name] ?? name}`, `# TYPE ${name} counter`);
        for (const [k, v] of series) lines.push(`${name}${k ? `{${k}}` : ""} ${v.value}`);
      }
      for (const [name, series] of histograms) {
        lines.push(`# HELP ${name} ${help[name] ?? name}`, `# TYPE ${name} histogram`);
        for (const [k, h] of series) {
          const sep = k ? `${k},` : "";
          let cumulative = 0;
          LATENCY_BUCKETS.forEach((b, i) => lines.push(`${name}_bucket{${sep}le="${b}"} ${(cumulative += h.counts[i]!)}`));
          lines.push(`${name}_bucket{${sep}le="+Inf"} ${h.count}`, `${name}_sum${k ? `{${k}}` : ""} ${h.sum}`, `${name}_count${k ? `{${k}}` : ""} ${h.count}`);
        }
      }
      for (const g of gauges) {
        lines.push(`# HELP ${g.name} ${g.help}`, `# TYPE ${g.name} gauge`);
        for (const { labels, value } of await g.read()) {
          const k = key(labels);
          lines.push(`${g.name}${k ? `{${k}}` : ""} ${value}`);
        }
      }
      return `${lines.join("\n")}\n`;
    },
  };
}

/** A path with its variable parts replaced, so metrics and logs group requests by endpoint. */
export function routeOf(path: string): string {
  let route = routes.get(path);
  if (route === undefined) {
    route = templateOf(path);
    // Remembered per path: the same paths recur (a list, a brain's pages); a flood of distinct ones
    // starts the memory over rather than growing it.
    if (routes.size >= 10_000) routes.clear();
    routes.set(path, route);
  }
  return route;
}
const routes = new Map<string, string>();

function templateOf(path: string): string {
  return path
    .split("/")
    .map((segment, i, all) => {
      if (/^[a-z]{3}_[0-9A-Za-z]{16}$/.test(segment)) return ":id";
      if (all[i - 1] === "pages" && i === all.length - 1) return ":slug";
      if (all[i - 1] === "uploads") return ":token";
      if (all[i - 1] === "x402" && !["geo", "social", "clips", "bazaar"].includes(segment)) return ":id";
      return segment;
    })
    .join("/");
}
