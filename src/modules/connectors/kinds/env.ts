// What the kinds' configs are checked against, from the server's settings.
import type { Config } from "../../../config";
import type { ConfigEnv } from "./types";

export const configEnvOf = (config: Pick<Config, "fetchAllowHosts" | "connectorGitRoots" | "connectorFolderRoots">): ConfigEnv => ({
  allowHosts: config.fetchAllowHosts,
  gitRoots: config.connectorGitRoots,
  folderRoots: config.connectorFolderRoots,
});
