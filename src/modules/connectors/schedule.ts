// A connector's schedule: `manual`, an interval (`every 6h`, an ISO 8601 duration like `PT6H`, or a number
// of seconds), or a cron expression (croner, 5 or 6 fields). Stored as given, normalized.
import { Cron } from "croner";
import { invalid } from "../../lib/errors";

/** Shorter intervals would have a brain re-crawl a site all day; a cron expression can still ask for it. */
export const MIN_INTERVAL_SECONDS = 60;
const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

export type Schedule = { kind: "manual" } | { kind: "interval"; seconds: number } | { kind: "cron"; expression: string };

function intervalOf(text: string): number | null {
  const every = /^every\s+(\d+)\s*(s|sec|secs|seconds?|m|min|mins|minutes?|h|hours?|d|days?)$/i.exec(text);
  if (every) return Number(every[1]) * UNIT_SECONDS[every[2]![0]!.toLowerCase()]!;
  const iso = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/i.exec(text);
  if (iso && text.length > 1 && !/T$/i.test(text)) return Number(iso[1] ?? 0) * 86400 + Number(iso[2] ?? 0) * 3600 + Number(iso[3] ?? 0) * 60 + Number(iso[4] ?? 0);
  if (/^\d+$/.test(text)) return Number(text);
  return null;
}

/** Parses a schedule or throws a 422 naming `schedule`. */
export function parseSchedule(raw: unknown): Schedule {
  if (raw === undefined || raw === null || raw === "manual") return { kind: "manual" };
  if (typeof raw === "number") raw = String(raw);
  if (typeof raw !== "string" || !raw.trim()) throw invalid("schedule", "schedule must be \"manual\", an interval (\"every 6h\", \"PT6H\", seconds) or a cron expression");
  const text = raw.trim();
  const seconds = intervalOf(text);
  if (seconds !== null) {
    if (!Number.isSafeInteger(seconds) || seconds < MIN_INTERVAL_SECONDS)
      throw invalid("schedule", `an interval must be at least ${MIN_INTERVAL_SECONDS} seconds; got "${text}"`);
    return { kind: "interval", seconds };
  }
  try {
    new Cron(text, { paused: true }).stop();
  } catch (e) {
    throw invalid("schedule", `"${text}" is neither an interval ("every 6h", "PT6H", seconds) nor a valid cron expression: ${(e as Error).message}`);
  }
  return { kind: "cron", expression: text };
}

/** The stored form of a schedule. */
export function scheduleText(s: Schedule): string {
  if (s.kind === "manual") return "manual";
  if (s.kind === "cron") return s.expression;
  // The largest unit that divides it: "every 6h" reads better than "every 21600s".
  const unit = (["d", "h", "m"] as const).find((u) => s.seconds % UNIT_SECONDS[u]! === 0) ?? "s";
  return `every ${s.seconds / UNIT_SECONDS[unit]!}${unit}`;
}

/** When a run is due after `from`; null for manual. */
export function nextRunAfter(s: Schedule, from: number): number | null {
  if (s.kind === "manual") return null;
  if (s.kind === "interval") return from + s.seconds * 1000;
  const next = new Cron(s.expression, { paused: true }).nextRun(new Date(from));
  return next ? next.getTime() : null;
}
