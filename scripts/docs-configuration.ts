// Writes docs/configuration.md from the list of environment variables the server reads (src/config.ts),
// so the page can never drift from the code: `npx bun scripts/docs-configuration.ts` after adding one;
// the fast test tier fails when the file is stale.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ENV_VARS } from "../src/config";

const escapeCell = (text: string) => text.replaceAll("|", "\\|");

export function configurationPage(): string {
  const rows = ENV_VARS.map((v) => `| \`${v.name}\` | ${v.default ? `\`${escapeCell(v.default)}\`` : "unset"} | ${escapeCell(v.help)} |`);
  return [
    "# Configuration",
    "",
    "Generated from `src/config.ts` by `npx bun scripts/docs-configuration.ts`; do not edit by hand.",
    "",
    "Every setting is an environment variable, validated once at start: every bad value is reported and the",
    "server exits with code 2. `brainbox --help` prints the same list.",
    "",
    "| variable | default | meaning |",
    "|---|---|---|",
    ...rows,
    "",
  ].join("\n");
}

if (import.meta.main) {
  const path = join(import.meta.dir, "..", "docs", "configuration.md");
  writeFileSync(path, configurationPage());
  console.log(`wrote ${path} (${ENV_VARS.length} variables)`);
}
