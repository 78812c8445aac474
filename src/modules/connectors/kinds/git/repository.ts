// The branch's files at its newest commit: an https repository is cloned once into the connector's work
// folder (shallow, that branch only, no working tree) and fetched on each later sync; a repository on the
// server is read in place. Each file is listed with its blob id, so an unchanged file is never read again.
import * as fs from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import git from "isomorphic-git";
import type { ItemRef, KindRun } from "../types";
import { selected } from "../files";
import type { GitConfig } from "./config";
import { GitAddressError, guardedGitHttp } from "./http";

/** Objects read during one run share isomorphic-git's pack cache (the pack index is read once). */
const caches = new WeakMap<KindRun<GitConfig>, { gitdir: string; cache: object }>();

function plainGitError(e: unknown, c: GitConfig): Error {
  if (e instanceof GitAddressError) return e;
  if ((e as Error).name === "TimeoutError") return new Error(`${c.url} did not answer within ${c.timeoutMs} ms`);
  const err = e as { code?: string; data?: { statusCode?: number }; message?: string };
  const where = c.url ?? c.gitdir;
  if (err.code === "NotFoundError" || err.code === "ResolveRefError") return new Error(`the branch "${c.branch}" does not exist in ${where}`);
  if (err.code === "HttpError" && (err.data?.statusCode === 401 || err.data?.statusCode === 403))
    return new Error(`${where} refused access (HTTP ${err.data.statusCode}): check config.token`);
  if (err.code === "HttpError" || err.code === "SmartHttpError" || err.code === "ParseError" || err.code === "UnknownTransportError")
    return new Error(`${where} is not a Git repository${err.data?.statusCode ? ` (HTTP ${err.data.statusCode})` : ""}`);
  return new Error(`reading ${where} failed: ${err.message ?? String(e)}`);
}

function authHeaders(c: GitConfig): Record<string, string> {
  return c.token ? { authorization: `Basic ${Buffer.from(`${c.username}:${c.token}`).toString("base64")}` } : {};
}

/** Clones (first sync, or when the URL changed) or fetches the branch; the git directory to read. */
async function fetchBranch(run: KindRun<GitConfig>): Promise<string> {
  const c = run.config;
  const gitdir = join(run.workDir, "repo.git");
  const marker = join(run.workDir, "url");
  const http = guardedGitHttp({ allowHosts: c.allowHosts, maxBytes: c.maxRepoBytes, timeoutMs: c.timeoutMs, signal: run.signal });
  const common = { fs, http, gitdir, ref: c.branch, singleBranch: true, depth: 1, headers: authHeaders(c) };
  const clonedFrom = await readFile(marker, "utf8").catch(() => null);
  if (clonedFrom === c.url) {
    await git.fetch({ ...common, tags: false });
    return gitdir;
  }
  await rm(run.workDir, { recursive: true, force: true });
  await mkdir(run.workDir, { recursive: true });
  try {
    await git.clone({ ...common, dir: run.workDir, url: c.url!, noCheckout: true, noTags: true });
  } catch (e) {
    await rm(run.workDir, { recursive: true, force: true }); // half a clone is not kept: the next sync starts clean
    throw e;
  }
  await writeFile(marker, c.url!);
  return gitdir;
}

async function branchCommit(gitdir: string, c: GitConfig): Promise<string> {
  const refs = c.url ? [`refs/remotes/origin/${c.branch}`, `refs/heads/${c.branch}`] : [`refs/heads/${c.branch}`];
  for (const ref of refs) {
    const oid = await git.resolveRef({ fs, gitdir, ref }).catch(() => null);
    if (oid) return oid;
  }
  throw Object.assign(new Error("no such branch"), { code: "NotFoundError" });
}

/** Every selected file of the branch, keyed by path, versioned by blob id. */
export async function listFiles(run: KindRun<GitConfig>): Promise<ItemRef[]> {
  const c = run.config;
  const cache = {};
  try {
    const gitdir = c.gitdir ?? (await fetchBranch(run));
    const commit = await branchCommit(gitdir, c);
    caches.set(run, { gitdir, cache });
    const refs: ItemRef[] = [];
    await git.walk({
      fs,
      gitdir,
      cache,
      trees: [git.TREE({ ref: commit })],
      map: async (path, [entry]) => {
        if (!entry || path === ".") return true;
        if (refs.length >= c.maxFiles) return null;
        const type = await entry.type();
        if (type === "tree") return path.split("/").some((s) => s.startsWith(".")) ? null : true;
        // Symlinks (mode 120000) hold a path, not a document; submodules are other repositories.
        if (type === "blob" && (await entry.mode()) !== 0o120000 && selected(c, path)) refs.push({ key: path, version: await entry.oid() });
        return null;
      },
    });
    return refs;
  } catch (e) {
    throw plainGitError(e, c);
  }
}

/** A file's bytes by its blob id, from the git directory the run listed. */
export async function readFileBlob(run: KindRun<GitConfig>, oid: string): Promise<Uint8Array> {
  let state = caches.get(run);
  if (!state) {
    // A resumed run did not list: the clone (or the server's repository) already holds every listed blob.
    state = { gitdir: run.config.gitdir ?? join(run.workDir, "repo.git"), cache: {} };
    caches.set(run, state);
  }
  const { blob } = await git.readBlob({ fs, gitdir: state.gitdir, oid, cache: state.cache });
  return blob;
}
