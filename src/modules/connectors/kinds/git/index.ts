// The git kind: a branch of a repository (https, or a path on the server under BRAINBOX_CONNECTOR_GIT_ROOTS)
// through isomorphic-git. Each file's blob id is its version: the runner skips a file whose blob did not
// change (no read, no write); files deleted from the branch are pruned; the path is the item key.
import type { ConnectorKind } from "../types";
import { fileSource } from "../files";
import { GIT_SECRET_KEYS, parseGitConfig, webUrlOf, type GitConfig } from "./config";
import { listFiles, readFileBlob } from "./repository";

export const gitKind: ConnectorKind<GitConfig> = {
  kind: "git",
  secretKeys: GIT_SECRET_KEYS,
  ownsSources: true,
  parseConfig: parseGitConfig,
  list: listFiles,
  async fetch(run, item) {
    const oid = item.version!;
    const bytes = await readFileBlob(run, oid);
    if (bytes.byteLength > run.config.maxFileBytes) throw new Error(`the file is larger than ${run.config.maxFileBytes} bytes`);
    return fileSource(run as never, item.key, bytes, oid, webUrlOf(run.config, item.key));
  },
  prunes: (c) => c.prune,
  revisitsKnown: () => false,
  maxItems: (c) => c.maxFiles,
  concurrency: () => 4,
};
