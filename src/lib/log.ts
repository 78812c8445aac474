// Structured JSON logs on stderr (stdout is reserved for command output such as a new key).
type Level = "debug" | "info" | "warn" | "error";
const order: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

export function createLogger(level: Level = "info", sink: (line: string) => void = (l) => process.stderr.write(l)): Logger {
  const write = (at: Level) => (msg: string, fields: Record<string, unknown> = {}) => {
    if (order[at] < order[level]) return;
    sink(`${JSON.stringify({ time: new Date().toISOString(), level: at, msg, ...fields })}\n`);
  };
  return { debug: write("debug"), info: write("info"), warn: write("warn"), error: write("error") };
}
