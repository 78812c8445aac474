// The operator's side of people, as real child processes: the first start prints the owner's setup link
// once (beside the key, which stays the only key printed); `users set-password` (password on stdin) and
// `users reset-link` work on the data dir, also while a server runs on it.
import { afterAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { BUN, ROOT, spawnServer } from "../../support/cli";
import { tempDir } from "../../support/server";

const dirs: string[] = [];
const fresh = () => {
  const d = tempDir();
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

async function users(args: string[], dir: string, stdin = "") {
  const proc = Bun.spawn([BUN, join(ROOT, "src/main.ts"), "users", ...args], {
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", BRAINBOX_DATA_DIR: dir, BRAINBOX_LOG_LEVEL: "error" },
    stdin: new TextEncoder().encode(stdin),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, stdout, stderr };
}

const signIn = (url: string, email: string, password: string) =>
  fetch(`${url}/api/v1/session`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email, password }) });

describe("people on the command line", () => {
  test("first start: one setup link and one key on stdout; the link works once; a restart prints nothing", async () => {
    const dir = fresh();
    const first = await spawnServer({ BRAINBOX_DATA_DIR: dir });
    try {
      await Bun.sleep(100);
      const out = first.stdout();
      expect(out.match(/bb_live_\w+/g) ?? []).toHaveLength(1);
      const links = out.match(/http:\/\/\S+\/setup\?token=bb_pl_\w{43}/g) ?? [];
      expect(links).toHaveLength(1);
      expect(out.trimEnd().split("\n").at(-1)).toMatch(/^bb_live_\w{43}$/);
      const token = new URL(links[0]!).searchParams.get("token");
      const redeem = (password: string) =>
        fetch(`${first.url}/api/v1/password-links/redeem`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ token, password, email: "owner@example.com" }) });
      expect((await redeem("owner password one")).status).toBe(201);
      expect((await redeem("owner password two")).status).toBe(400);
      expect((await signIn(first.url, "owner@example.com", "owner password one")).status).toBe(201);
    } finally {
      await first.stop();
    }
    const second = await spawnServer({ BRAINBOX_DATA_DIR: dir });
    await second.stop();
    expect(second.stdout()).toBe("");
  });

  test("users set-password (stdin) and users reset-link, while the server runs", async () => {
    const dir = fresh();
    const server = await spawnServer({ BRAINBOX_DATA_DIR: dir });
    try {
      // Nobody has the email yet: a clear error, exit 1.
      const unknown = await users(["set-password", "--email", "op@example.com"], dir, "operator password\n");
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain("--account");
      const list = Bun.spawnSync([BUN, join(ROOT, "src/main.ts"), "accounts", "list"], { env: { PATH: process.env.PATH ?? "", BRAINBOX_DATA_DIR: dir, BRAINBOX_LOG_LEVEL: "error" } });
      const ownerId = new TextDecoder().decode(list.stdout).split("\t")[0]!;
      const short = await users(["set-password", "--email", "op@example.com", "--account", ownerId], dir, "short\n");
      expect(short.code).toBe(1);
      expect(short.stderr).toContain("at least 10 characters");
      const set = await users(["set-password", "--email", "Op@Example.com", "--account", ownerId], dir, "operator password\nignored second line\n");
      expect(set.code).toBe(0);
      expect(set.stdout).toContain("op@example.com");
      expect((await signIn(server.url, "op@example.com", "operator password")).status).toBe(201);

      const reset = await users(["reset-link", "--email", "op@example.com"], dir);
      expect(reset.code).toBe(0);
      const url = /http:\/\/\S+\/setup\?token=bb_pl_\w{43}/.exec(reset.stdout)?.[0];
      expect(url).toBeString();
      const token = new URL(url!).searchParams.get("token");
      const redeemed = await fetch(`${server.url}/api/v1/password-links/redeem`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ token, password: "after the reset!" }) });
      expect(redeemed.status).toBe(201);
      expect((await signIn(server.url, "op@example.com", "operator password")).status).toBe(401);
      expect((await signIn(server.url, "op@example.com", "after the reset!")).status).toBe(201);

      expect((await users(["set-password"], dir)).code).toBe(2);
      expect((await users(["frobnicate", "--email", "a@b.co"], dir)).code).toBe(2);
    } finally {
      await server.stop();
    }
  });
});
