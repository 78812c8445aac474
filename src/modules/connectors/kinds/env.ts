// What the kinds' configs are checked against, from the server's settings.
import { join } from "node:path";
import type { Config } from "../../../config";
import type { ConfigEnv } from "./types";

export const configEnvOf = (config: Pick<Config, "fetchAllowHosts" | "connectorGitRoots" | "connectorFolderRoots">): ConfigEnv => ({
  allowHosts: config.fetchAllowHosts,
  gitRoots: config.connectorGitRoots,
  folderRoots: config.connectorFolderRoots,
});

/** A connector's own folder in the data dir (git keeps its clone there); removed with the connector. */
export const workDirOf = (dataDir: string, connectorId: string) => join(dataDir, "connectors", connectorId);
