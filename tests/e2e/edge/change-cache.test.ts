// Keys and the brains list are kept in memory while the database is unchanged (src/modules/auth/key-cache.ts,
// src/db/read-cache.ts). The rules: a change made by this process applies to its next request; a change
// committed by another process on the same file applies within DATA_VERSION_CHECK_MS (1 ms); lastUsedAt is
// still stamped. The second process here is a real `brainbox serve` child on the same data directory.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { loadConfig } from "../../../src/config";
import { openDatabase } from "../../../src/db/client";
import { DATA_VERSION_CHECK_MS } from "../../../src/db/file-client";
import { createLogger } from "../../../src/lib/log";
import { startServer, type Running } from "../../../src/runtime";
import { spawnServer } from "../../support/cli";
import { expectJson, tempDir } from "../../support/server";

const dataDir = tempDir();
let a: Running;
let other: Awaited<ReturnType<typeof spawnServer>>;
let ownerKey: string;
beforeAll(async () => {
  a = await startServer(loadConfig({ BRAINBOX_PORT: "0", BRAINBOX_DATA_DIR: dataDir, BRAINBOX_JOBS: "false", BRAINBOX_AUTH_FAILURES_PER_MINUTE: "1000" }), createLogger("error"));
  ownerKey = a.firstKey!.key;
  other = await spawnServer({ BRAINBOX_DATA_DIR: dataDir, BRAINBOX_JOBS: "false", BRAINBOX_AUTH_FAILURES_PER_MINUTE: "1000" });
});
afterAll(async () => {
  await other.stop();
  await a.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const auth = (key: string, init: RequestInit = {}): RequestInit => ({
  ...init,
  headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...(init.headers ?? {}) },
});
const newKey = async (url: string, name: string) =>
  (await expectJson(await fetch(`${url}/api/user/api-keys`, auth(ownerKey, { method: "POST", body: JSON.stringify({ name }) })), 201)) as { id: string; key: string };
/** Longer than the bound, so a commit of the other process is certainly visible. */
const pastTheBound = () => Bun.sleep(DATA_VERSION_CHECK_MS + 5);

describe("keys cached while the database is unchanged", () => {
  test("a key revoked by another process is refused within the bound; the process that revoked it refuses at once", async () => {
    const made = await newKey(a.url, "cross-process");
    for (let i = 0; i < 3; i++) {
      expect((await fetch(`${a.url}/api/v1/brains`, auth(made.key))).status).toBe(200);
      expect((await fetch(`${other.url}/api/v1/brains`, auth(made.key))).status).toBe(200);
    }
    expect((await fetch(`${other.url}/api/user/api-keys/${made.id}`, auth(ownerKey, { method: "DELETE" }))).status).toBe(204);
    // The revoking process: its own write changed its version, no wait.
    expect((await expectJson(await fetch(`${other.url}/api/v1/brains`, auth(made.key)), 401)).error.code).toBe("unauthorized");
    await pastTheBound();
    expect((await expectJson(await fetch(`${a.url}/api/v1/brains`, auth(made.key)), 401)).error.code).toBe("unauthorized");
    // The owner's cached key is unaffected by the change.
    expect((await fetch(`${a.url}/api/v1/brains`, auth(ownerKey))).status).toBe(200);
  });

  test("a key revoked in this process is refused at its next request", async () => {
    const made = await newKey(a.url, "same-process");
    expect((await fetch(`${a.url}/api/v1/brains`, auth(made.key))).status).toBe(200);
    expect((await fetch(`${a.url}/api/user/api-keys/${made.id}`, auth(ownerKey, { method: "DELETE" }))).status).toBe(204);
    expect((await fetch(`${a.url}/api/v1/brains`, auth(made.key))).status).toBe(401);
  });

  test("a plan changed by another process applies within the bound", async () => {
    const created = await expectJson(await fetch(`${a.url}/api/v1/admin/accounts`, auth(ownerKey, { method: "POST", body: JSON.stringify({ name: "Plan", plan: "free" }) })), 201);
    const key = created.apiKey.key as string;
    expect((await expectJson(await fetch(`${a.url}/api/v1/account`, auth(key)), 200)).account.plan).toBe("free");
    await expectJson(await fetch(`${other.url}/api/v1/admin/accounts/${created.account.id}`, auth(ownerKey, { method: "PATCH", body: JSON.stringify({ plan: "pro" }) })), 200);
    await pastTheBound();
    expect((await expectJson(await fetch(`${a.url}/api/v1/account`, auth(key)), 200)).account.plan).toBe("pro");
  });

  test("lastUsedAt is stamped on first use although later requests never read the key from the database", async () => {
    const made = await newKey(a.url, "stamp");
    expect((await fetch(`${a.url}/api/v1/brains`, auth(made.key))).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await fetch(`${a.url}/api/v1/brains`, auth(made.key))).status).toBe(200);
    const keys = (await expectJson(await fetch(`${other.url}/api/user/api-keys`, auth(ownerKey)), 200)).apiKeys as Array<{ id: string; lastUsedAt: string | null }>;
    expect(keys.find((k) => k.id === made.id)!.lastUsedAt).not.toBeNull();
  });
});

describe("brains list kept while the database is unchanged", () => {
  test("brains created, renamed and deleted by either process show in the other's list", async () => {
    const names = async (url: string) => ((await expectJson(await fetch(`${url}/api/v1/brains`, auth(ownerKey)), 200)).brains as Array<{ id: string; name: string }>).map((b) => b.name);
    const before = await names(a.url);
    const made = (await expectJson(await fetch(`${other.url}/api/v1/brains`, auth(ownerKey, { method: "POST", body: JSON.stringify({ name: "From the other" }) })), 201)).brain;
    await pastTheBound();
    expect(await names(a.url)).toEqual([...before, "From the other"]);
    await expectJson(await fetch(`${a.url}/api/v1/brains/${made.id}`, auth(ownerKey, { method: "PATCH", body: JSON.stringify({ name: "Renamed here" }) })), 200);
    // This process's own write: the next list has it, no wait.
    expect(await names(a.url)).toEqual([...before, "Renamed here"]);
    await pastTheBound();
    expect(await names(other.url)).toEqual([...before, "Renamed here"]);
    expect((await fetch(`${other.url}/api/v1/brains/${made.id}`, auth(ownerKey, { method: "DELETE" }))).status).toBe(204);
    await pastTheBound();
    expect(await names(a.url)).toEqual(before);
  });

  test("the cached list cannot be changed by a caller", async () => {
    const { listBrains } = await import("../../../src/modules/brains/service");
    const owner = (await expectJson(await fetch(`${a.url}/api/v1/account`, auth(ownerKey)), 200)).account.id as string;
    await listBrains(a.ctx.db, owner, "own");
    const cached = await listBrains(a.ctx.db, owner, "own");
    expect(Object.isFrozen(cached)).toBe(true);
    expect(() => (cached as unknown as unknown[]).push({})).toThrow();
  });
});

describe("change version of the embedded database", () => {
  test("own writes change it at once, reads and writes that change nothing do not, another connection's commit within the bound", async () => {
    const dir = tempDir();
    const one = openDatabase({ dataDir: dir });
    const two = openDatabase({ dataDir: join(dir) });
    try {
      await one.client.execute("CREATE TABLE t (x INTEGER)");
      await pastTheBound();
      const start = one.changeVersion();
      await one.client.execute("SELECT count(*) FROM t");
      await one.client.execute({ sql: "UPDATE t SET x = 1 WHERE x = ?", args: [5] });
      await one.client.execute({ sql: "UPDATE t SET x = 2 WHERE x = ? RETURNING x", args: [5] });
      await pastTheBound();
      expect(one.changeVersion()).toBe(start);
      await one.client.execute({ sql: "INSERT INTO t (x) VALUES (?)", args: [1] });
      const afterOwn = one.changeVersion();
      expect(afterOwn).not.toBe(start);
      // Another client in this process on the same file shares the version: at once.
      await two.client.execute({ sql: "INSERT INTO t (x) VALUES (?)", args: [2] });
      const afterSibling = one.changeVersion();
      expect(afterSibling).not.toBe(afterOwn);
      // Another process (here: a plain native connection, unknown to this process) within the bound.
      const Database = (await import("libsql")).default;
      const outside = new Database(join(dir, "brainbox.db"));
      outside.prepare("INSERT INTO t (x) VALUES (3)").run();
      outside.close();
      await pastTheBound();
      expect(one.changeVersion()).not.toBe(afterSibling);
      // Rows keep the @libsql/client shape: by name (enumerable), by index (not), with a length.
      const rows = (await one.client.execute("SELECT x, x AS y, x AS x FROM t ORDER BY x")).rows;
      expect(rows.length).toBe(3);
      expect({ ...rows[0] }).toEqual({ x: 1, y: 1 });
      expect([rows[0]![0], rows[0]![1], rows[0]!.length]).toEqual([1, 1, 3]);
      expect(JSON.stringify(rows[2])).toBe('{"x":3,"y":3}');
      expect((await one.client.execute({ sql: "SELECT x FROM t WHERE x > ? LIMIT ?", args: [1, 1] })).rows.map((r) => r.x)).toEqual([2]);
      expect((await one.client.execute({ sql: "SELECT x FROM t WHERE x > ? LIMIT ?", args: [9, 1] })).rows).toEqual([]);
    } finally {
      one.close();
      two.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
