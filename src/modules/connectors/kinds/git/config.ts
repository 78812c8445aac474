// The git kind's settings: a repository (an https URL, or a path under BRAINBOX_CONNECTOR_GIT_ROOTS), a
// branch, which files, and where a file is shown on the forge.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { invalid } from "../../../../lib/errors";
import { isAllowListed, normalizeHostname } from "../../../../ingest";
import type { ConfigEnv } from "../types";
import { fetchableUrl, onlyKnownKeys, optionalBool, optionalInt } from "../config-fields";
import { parseFileSelection, type FileSelection } from "../files";
import { folderUnderRoots } from "../server-paths";

export interface GitConfig extends FileSelection {
  /** An http(s) repository, cloned into the connector's work folder; or null with `path`. */
  url: string | null;
  /** The git directory of a repository on the server, read in place. */
  gitdir: string | null;
  branch: string;
  /** `https://forge/org/repo/blob/{branch}/{path}`: a file's page on the forge, its source's URL. */
  webUrl: string | null;
  token: string | null;
  username: string;
  maxFiles: number;
  maxFileBytes: number;
  maxRepoBytes: number;
  /** Longest one request to the forge may take (a clone's pack included). */
  timeoutMs: number;
  prune: boolean;
  allowHosts: ConfigEnv["allowHosts"];
}

const KEYS = ["url", "path", "branch", "include", "exclude", "webUrl", "token", "username", "maxFiles", "maxFileBytes", "maxRepoBytes", "timeoutMs", "prune"] as const;
export const GIT_SECRET_KEYS = ["token"] as const;

// A branch name as git allows it (git check-ref-format), without the rarer corners.
const BRANCH = /^(?!\/|.*\/\/|.*\/$|.*\.\.|.*@\{|.*\.lock$|.*\/\.)[^\x00-\x20~^:?*[\\\x7f]+$/;

function repositoryUrl(raw: unknown, env: ConfigEnv): string {
  const url = fetchableUrl(raw, "url", env.allowHosts);
  const parsed = new URL(url);
  if (parsed.username || parsed.password) throw invalid("config.url", "config.url cannot hold credentials: put a token in config.token");
  const port = parsed.port ? Number(parsed.port) : 80;
  if (parsed.protocol === "http:" && !isAllowListed(env.allowHosts, normalizeHostname(parsed.hostname), port))
    throw invalid("config.url", "config.url must be an https URL (plain http only for hosts in BRAINBOX_FETCH_ALLOW_HOSTS)");
  return url.replace(/\/+$/, "");
}

/** A bare repository is its own git directory; a working copy keeps it in `.git`. */
function gitdirOf(raw: unknown, env: ConfigEnv): string {
  const dir = folderUnderRoots(raw, "path", env.gitRoots, "BRAINBOX_CONNECTOR_GIT_ROOTS");
  if (existsSync(join(dir, "HEAD")) && existsSync(join(dir, "objects"))) return dir;
  if (existsSync(join(dir, ".git", "HEAD"))) return join(dir, ".git");
  throw invalid("config.path", `config.path is not a Git repository: ${dir}`);
}

function webUrlTemplate(raw: unknown): string | null {
  if (raw === undefined || raw === null) return null;
  if (typeof raw !== "string" || !raw.includes("{path}")) throw invalid("config.webUrl", 'config.webUrl must be a URL template with {path} (and maybe {branch}), e.g. "https://forge/org/repo/blob/{branch}/{path}"');
  let url: URL;
  try {
    url = new URL(raw.replaceAll("{branch}", "main").replaceAll("{path}", "a.md"));
  } catch {
    throw invalid("config.webUrl", "config.webUrl must be an http or https URL template");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw invalid("config.webUrl", "config.webUrl must be an http or https URL template");
  return raw.trim();
}

export function parseGitConfig(raw: Record<string, unknown>, env: ConfigEnv): GitConfig {
  onlyKnownKeys(raw, KEYS);
  if ((raw.url === undefined) === (raw.path === undefined)) throw invalid("config.url", "config.url (an https repository) or config.path (a repository on the server) must be given, not both");
  const branch = raw.branch === undefined ? "main" : raw.branch;
  if (typeof branch !== "string" || !BRANCH.test(branch) || branch.length > 200) throw invalid("config.branch", "config.branch must be a branch name");
  if (raw.token !== undefined && raw.token !== null && (typeof raw.token !== "string" || !raw.token || /[\r\n]/.test(raw.token))) throw invalid("config.token", "config.token must be a one-line string");
  if (raw.token && raw.path !== undefined) throw invalid("config.token", "config.token is for an https repository, not a path");
  if (raw.username !== undefined && (typeof raw.username !== "string" || !/^[^\s:]{1,100}$/.test(raw.username))) throw invalid("config.username", "config.username must be a user name without spaces or colons");
  return {
    url: raw.url !== undefined ? repositoryUrl(raw.url, env) : null,
    gitdir: raw.path !== undefined ? gitdirOf(raw.path, env) : null,
    branch,
    ...parseFileSelection(raw),
    webUrl: webUrlTemplate(raw.webUrl),
    token: typeof raw.token === "string" ? raw.token : null,
    username: typeof raw.username === "string" ? raw.username : "x-access-token",
    maxFiles: optionalInt(raw, "maxFiles", 10_000, 1, 100_000),
    maxFileBytes: optionalInt(raw, "maxFileBytes", 10 * 1024 * 1024, 1, 100 * 1024 * 1024),
    maxRepoBytes: optionalInt(raw, "maxRepoBytes", 1024 * 1024 * 1024, 1024, 16 * 1024 * 1024 * 1024),
    timeoutMs: optionalInt(raw, "timeoutMs", 300_000, 1000, 3_600_000),
    prune: optionalBool(raw, "prune", true),
    allowHosts: env.allowHosts,
  };
}

/** A file's page on the forge, each path segment escaped. */
export function webUrlOf(config: GitConfig, path: string): string | undefined {
  if (!config.webUrl) return undefined;
  return config.webUrl.replaceAll("{branch}", encodeURIComponent(config.branch).replaceAll("%2F", "/")).replaceAll("{path}", path.split("/").map(encodeURIComponent).join("/"));
}
