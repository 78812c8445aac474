// Two app instances (replicas) on one database file in one process: a key revoked on one is refused at once
// on both (the clients of one file share its change version, so the cached key is dropped at the write);
// lastUsedAt is written at most once a minute, not per request. Other processes: tests/e2e/edge/change-cache.test.ts.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { loadConfig } from "../../src/config";
import { createLogger } from "../../src/lib/log";
import { startServer, type Running } from "../../src/runtime";
import { expectJson, tempDir } from "../support/server";

const dataDir = tempDir();
let a: Running;
let b: Running;
let ownerKey: string;
beforeAll(async () => {
  const config = loadConfig({ BRAINBOX_PORT: "0", BRAINBOX_DATA_DIR: dataDir, BRAINBOX_JOBS: "false", BRAINBOX_AUTH_FAILURES_PER_MINUTE: "1000" });
  a = await startServer(config, createLogger("error"));
  b = await startServer(config, createLogger("error"));
  ownerKey = a.firstKey!.key;
});
afterAll(async () => {
  await a.stop();
  await b.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const call = (server: Running, key: string, init: RequestInit = {}) =>
  fetch(`${server.url}/api/v1/brains`, { ...init, headers: { authorization: `Bearer ${key}`, ...(init.headers ?? {}) } });
const keysOf = async (server: Running) =>
  (await expectJson(await fetch(`${server.url}/api/user/api-keys`, { headers: { authorization: `Bearer ${ownerKey}` } }), 200)).apiKeys as Array<{
    id: string;
    lastUsedAt: string | null;
    revokedAt: string | null;
  }>;

test("a key revoked on one replica is refused at once there and on the other", async () => {
  const made = await expectJson(
    await fetch(`${a.url}/api/user/api-keys`, { method: "POST", headers: { authorization: `Bearer ${ownerKey}`, "content-type": "application/json" }, body: JSON.stringify({ name: "shared" }) }),
    201,
  );
  // Warm both replicas with the key (any per-replica state is filled).
  for (let i = 0; i < 3; i++) {
    expect((await call(a, made.key)).status).toBe(200);
    expect((await call(b, made.key)).status).toBe(200);
  }
  const revoked = await fetch(`${a.url}/api/user/api-keys/${made.id}`, { method: "DELETE", headers: { authorization: `Bearer ${ownerKey}` } });
  expect(revoked.status).toBe(204);
  expect((await expectJson(await call(a, made.key), 401)).error.code).toBe("unauthorized");
  expect((await expectJson(await call(b, made.key), 401)).error.code).toBe("unauthorized");
  // And the other way round: revoked on B, refused on A at once.
  const second = await expectJson(
    await fetch(`${b.url}/api/user/api-keys`, { method: "POST", headers: { authorization: `Bearer ${ownerKey}`, "content-type": "application/json" }, body: JSON.stringify({ name: "second" }) }),
    201,
  );
  expect((await call(a, second.key)).status).toBe(200);
  await fetch(`${b.url}/api/user/api-keys/${second.id}`, { method: "DELETE", headers: { authorization: `Bearer ${ownerKey}` } });
  expect((await call(a, second.key)).status).toBe(401);
  expect((await call(b, second.key)).status).toBe(401);
  // The owner's key was never affected.
  expect((await call(a, ownerKey)).status).toBe(200);
  expect((await call(b, ownerKey)).status).toBe(200);
});

test("lastUsedAt is stamped on use, then not rewritten on every request", async () => {
  const made = await expectJson(
    await fetch(`${a.url}/api/user/api-keys`, { method: "POST", headers: { authorization: `Bearer ${ownerKey}`, "content-type": "application/json" }, body: JSON.stringify({ name: "stamped" }) }),
    201,
  );
  expect((await keysOf(a)).find((k) => k.id === made.id)!.lastUsedAt).toBeNull();
  expect((await call(a, made.key)).status).toBe(200);
  const first = (await keysOf(b)).find((k) => k.id === made.id)!.lastUsedAt;
  expect(first).not.toBeNull();
  await Bun.sleep(20);
  for (let i = 0; i < 5; i++) {
    expect((await call(a, made.key)).status).toBe(200);
    expect((await call(b, made.key)).status).toBe(200);
  }
  expect((await keysOf(a)).find((k) => k.id === made.id)!.lastUsedAt).toBe(first);
});
