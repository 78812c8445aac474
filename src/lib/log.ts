// Structured JSON logs on stderr (stdout is reserved for command output such as a new key).
import { writeSync } from "node:fs";

type Level = "debug" | "info" | "warn" | "error";
const order: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

/**
 * stderr, written once per event-loop turn instead of once per line: an access-log line per request was
 * one write system call per request (issue 15). Whatever is pending is written synchronously on exit.
 */
function bufferedStderr(): (line: string) => void {
  let pending = "";
  const flush = () => {
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
    if (!pending) setImmediate(flush);
    pending += line;
    if (pending.length > 65_536) flush();
  };
}

let stderrSink: ((line: string) => void) | undefined;

export function createLogger(level: Level = "info", sink?: (line: string) => void): Logger {
  const write_ = sink ?? (stderrSink ??= bufferedStderr());
  const write = (at: Level) => (msg: string, fields: Record<string, unknown> = {}) => {
    if (order[at] < order[level]) return;
    write_(`${JSON.stringify({ time: new Date().toISOString(), level: at, msg, ...fields })}\n`);
  };
  return { debug: write("debug"), info: write("info"), warn: write("warn"), error: write("error") };
}
