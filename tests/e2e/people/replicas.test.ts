// Deactivation on every replica: two server processes on one database file; a person's session cookie, API
// key and OAuth access token, each used (and cached) on replica B, answer 401 on B at the next request after
// an admin deactivates the person on replica A.
import { afterAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { BUN, lastLine, ROOT, runCli, spawnServer } from "../../support/cli";
import { tempDir, type TestServer } from "../../support/server";
import { accessTokenFor } from "../../people/support";

const dir = tempDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("a person deactivated on one replica is refused on the other at once: session, key and token", async () => {
  const env = { BRAINBOX_DATA_DIR: dir };
  const adminKey = lastLine((await runCli(["keys", "create", "--name", "admin"], env)).stdout);
  const personKey = lastLine((await runCli(["accounts", "create", "--name", "Pat", "--plan", "pro"], env)).stdout);
  const list = (await runCli(["accounts", "list"], env)).stdout;
  const patId = list.split("\n").find((l) => l.endsWith("\tPat"))!.split("\t")[0]!;
  const set = Bun.spawn([BUN, join(ROOT, "src/main.ts"), "users", "set-password", "--email", "pat@example.com", "--account", patId], {
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", ...env },
    stdin: new TextEncoder().encode("pats long password\n"),
  });
  expect(await set.exited).toBe(0);
  const [a, b] = await Promise.all([spawnServer(env), spawnServer(env)]);
  try {
    const signIn = await fetch(`${b.url}/api/v1/session`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: "pat@example.com", password: "pats long password" }) });
    expect(signIn.status).toBe(201);
    const cookie = signIn.headers.get("set-cookie")!.split(";")[0]!;
    const token = await accessTokenFor({ url: b.url } as TestServer, personKey);
    const onB = () =>
      Promise.all([
        fetch(`${b.url}/api/v1/brains`, { headers: { cookie } }),
        fetch(`${b.url}/api/v1/brains`, { headers: { authorization: `Bearer ${personKey}` } }),
        fetch(`${b.url}/api/v1/brains`, { headers: { authorization: `Bearer ${token}` } }),
      ]).then((rs) => rs.map((r) => r.status));
    expect(await onB()).toEqual([200, 200, 200]);
    expect(await onB()).toEqual([200, 200, 200]); // cached on B now
    const off = await fetch(`${a.url}/api/v1/people/${patId}/deactivate`, { method: "POST", headers: { authorization: `Bearer ${adminKey}` } });
    expect(off.status).toBe(200);
    expect(await onB()).toEqual([401, 401, 401]);
  } finally {
    await Promise.all([a.stop(), b.stop()]);
  }
});
