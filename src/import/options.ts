// The command-line options of `brainbox import` (kept apart so main.ts loads no import code up front).
export const IMPORT_OPTIONS = {
  brain: { type: "string" },
  url: { type: "string" },
  key: { type: "string" },
  state: { type: "string" },
  force: { type: "boolean" },
  sync: { type: "boolean" },
  "batch-bytes": { type: "string" },
  vault: { type: "boolean" },
} as const;
