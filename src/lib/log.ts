// Structured JSON logs on stderr (stdout is reserved for command output such as a new key).
import { writeSync } from "node:fs";

type Level = "debug" | "info" | "warn" | "error";
const order: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  /**
   * An info line whose fields are already JSON members (`"a":1,"b":"x"`, no braces), for the access log:
   * one line per request, built without an object or a generic stringify.
   */
  infoJson(msg: string, members: string): void;
}

/**
 * stderr, written in batches instead of once per line: an access-log line per request was one write system
 * call per request (issue 15). A line after a quiet spell is written at the end of its event-loop turn; while
 * lines keep coming, they gather for up to BATCH_MS (or 64 KiB) per write. Whatever is pending is written
 * synchronously on exit.
 */
const BATCH_MS = 10;
function bufferedStderr(): (line: string) => void {
  let pending = "";
  let scheduled = false;
  let lastFlush = -Infinity;
  const flush = () => {
    scheduled = false;
    lastFlush = performance.now();
    if (!pending) return;
    const out = Buffer.from(pending);
    pending = "";
    let written = 0;
    try {
      while (written < out.length) written += writeSync(2, out, written);
    } catch {
      // A non-blocking pipe that is full (EAGAIN): let the stream queue the rest.
      process.stderr.write(out.subarray(written));
    }
  };
  process.on("exit", flush);
  return (line) => {
    pending += line;
    if (pending.length > 65_536) return flush();
    if (scheduled) return;
    scheduled = true;
    const since = performance.now() - lastFlush;
    if (since >= BATCH_MS) setImmediate(flush);
    else setTimeout(flush, BATCH_MS - since).unref();
  };
}

let stderrSink: ((line: string) => void) | undefined;

/** The ISO time of the current millisecond, formatted once per millisecond (one per request showed in profiles). */
let isoMs = -1;
let isoText = "";
function isoNow(): string {
  const now = Date.now();
  if (now !== isoMs) {
    isoMs = now;
    isoText = new Date(now).toISOString();
  }
  return isoText;
}

export function createLogger(level: Level = "info", sink?: (line: string) => void): Logger {
  const write_ = sink ?? (stderrSink ??= bufferedStderr());
  const write = (at: Level) => {
    // The fixed head of a line, then the fields' own JSON: one stringify of the caller's object, no copy.
    const head = `","level":"${at}","msg":`;
    return (msg: string, fields?: Record<string, unknown>) => {
      if (order[at] < order[level]) return;
      if (fields === undefined) return write_(`{"time":"${isoNow()}${head}${JSON.stringify(msg)}}\n`);
      if ("time" in fields || "level" in fields || "msg" in fields) {
        return write_(`${JSON.stringify({ time: isoNow(), level: at, msg, ...fields })}\n`);
      }
      const rest = JSON.stringify(fields);
      write_(`{"time":"${isoNow()}${head}${JSON.stringify(msg)}${rest.length > 2 ? `,${rest.slice(1)}` : "}"}\n`);
    };
  };
  const infoHead = `","level":"info","msg":`;
  const infoJson = (msg: string, members: string) => {
    if (order.info < order[level]) return;
    write_(`{"time":"${isoNow()}${infoHead}${JSON.stringify(msg)}${members ? `,${members}` : ""}}\n`);
  };
  return { debug: write("debug"), info: write("info"), warn: write("warn"), error: write("error"), infoJson };
}
