// Import progress: a bar on a terminal (stderr), JSON lines otherwise (stdout), one per file and a summary.
export type FileOutcome =
  | { file: string; status: "imported"; sourceId: string; created: boolean }
  | { file: string; status: "unchanged" }
  | { file: string; status: "skipped"; reason: string }
  | { file: string; status: "failed"; reason: string }
  /** --sync: the file left the folder, so its source left the brain. */
  | { file: string; status: "removed"; sourceId: string };

export interface Totals {
  imported: number;
  unchanged: number;
  skipped: number;
  failed: number;
  removed: number;
}

export function reporter(tty: boolean, out: (line: string) => void = (l) => process.stdout.write(l), err = (l: string) => process.stderr.write(l)) {
  const totals: Totals = { imported: 0, unchanged: 0, skipped: 0, failed: 0, removed: 0 };
  let seen = 0;
  const bar = () => {
    const width = 24;
    const done = totals.imported + totals.unchanged + totals.skipped + totals.failed;
    const filled = seen ? Math.round((done / seen) * width) : 0;
    err(`\r[${"#".repeat(filled)}${".".repeat(width - filled)}] ${done}/${seen} files · ${totals.imported} imported, ${totals.unchanged} unchanged, ${totals.skipped} skipped, ${totals.failed} failed${totals.removed ? `, ${totals.removed} removed` : ""}`);
  };
  return {
    totals,
    /** A file was found (the bar's denominator grows as the walk goes). */
    found() {
      seen++;
      if (tty && seen % 50 === 0) bar();
    },
    file(outcome: FileOutcome) {
      totals[outcome.status]++;
      if (tty) {
        if (outcome.status === "skipped" || outcome.status === "failed") err(`\r\x1b[K${outcome.status}: ${outcome.file}: ${outcome.reason}\n`);
        bar();
      } else out(`${JSON.stringify(outcome)}\n`);
    },
    done() {
      if (tty) {
        bar();
        err("\n");
      } else out(`${JSON.stringify({ done: true, ...totals })}\n`);
    },
  };
}
