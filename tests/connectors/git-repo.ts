// Git repositories for the git connector's tests, made with the git CLI: a bare repository on disk, a
// working copy that commits and pushes to it, and a loopback smart-HTTP server (`git http-backend` as CGI).
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: "Test",
  GIT_AUTHOR_EMAIL: "test@example.org",
  GIT_COMMITTER_NAME: "Test",
  GIT_COMMITTER_EMAIL: "test@example.org",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
};

export const hasGit = Bun.spawnSync(["git", "--version"]).exitCode === 0;

export function git(cwd: string, ...args: string[]): string {
  const r = Bun.spawnSync(["git", ...args], { cwd, env: GIT_ENV, stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr.toString()}`);
  return r.stdout.toString().trim();
}

export interface Repo {
  /** The bare repository (what a connector reads). */
  bare: string;
  /** Writes (or, with null, deletes) files in the working copy, commits them and pushes the branch. */
  commit(files: Record<string, string | null>, branch?: string): void;
}

/** A bare repository `<root>/<name>.git` with a first commit of `files` on `main`. */
export function makeRepo(root: string, name: string, files: Record<string, string | null>): Repo {
  const bare = join(root, `${name}.git`);
  const work = join(root, `${name}-work`);
  mkdirSync(work, { recursive: true });
  git(root, "init", "-q", "--bare", "-b", "main", bare);
  git(work, "init", "-q", "-b", "main");
  git(work, "remote", "add", "origin", bare);
  const commit = (changes: Record<string, string | null>, branch = "main") => {
    for (const [path, text] of Object.entries(changes)) {
      const full = join(work, path);
      if (text === null) rmSync(full, { force: true });
      else {
        mkdirSync(dirname(full), { recursive: true });
        writeFileSync(full, text);
      }
    }
    git(work, "add", "-A");
    git(work, "commit", "-q", "--allow-empty", "-m", "change");
    git(work, "push", "-q", "origin", `HEAD:refs/heads/${branch}`);
  };
  commit(files);
  return { bare, commit };
}

/** Serves the bare repositories under `root` over smart HTTP on loopback; counts its requests. */
export function serveRepos(root: string) {
  const requests: { method: string; path: string; status: number; auth: string | null }[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const url = new URL(req.url);
      const body = req.method === "POST" ? new Uint8Array(await req.arrayBuffer()) : undefined;
      const proc = Bun.spawn(["git", "http-backend"], {
        env: {
          ...GIT_ENV,
          GIT_PROJECT_ROOT: root,
          GIT_HTTP_EXPORT_ALL: "1",
          REQUEST_METHOD: req.method,
          PATH_INFO: decodeURIComponent(url.pathname),
          QUERY_STRING: url.search.slice(1),
          CONTENT_TYPE: req.headers.get("content-type") ?? "",
          CONTENT_LENGTH: body ? String(body.byteLength) : "0",
          HTTP_GIT_PROTOCOL: req.headers.get("git-protocol") ?? "",
          REMOTE_ADDR: "127.0.0.1",
        },
        stdin: body ?? "ignore",
        stdout: "pipe",
        stderr: "ignore",
      });
      const out = Buffer.from(await new Response(proc.stdout).arrayBuffer());
      await proc.exited;
      const split = out.indexOf("\r\n\r\n");
      const head = out.subarray(0, split).toString("latin1").split("\r\n");
      const headers = new Headers();
      let status = 200;
      for (const line of head) {
        const i = line.indexOf(":");
        const [k, v] = [line.slice(0, i).trim(), line.slice(i + 1).trim()];
        if (k.toLowerCase() === "status") status = Number(v.split(" ")[0]);
        else if (k) headers.append(k, v);
      }
      requests.push({ method: req.method, path: url.pathname, status, auth: req.headers.get("authorization") });
      return new Response(out.subarray(split + 4), { status, headers });
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, port: server.port, requests, stop: () => server.stop(true) };
}
