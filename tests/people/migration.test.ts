// Migration 0025 on a database made by the previous schema: accounts keep working (no password yet, not
// deactivated), a web session opened with a key before the upgrade still signs its browser in (now as a
// person's session, ending with its key), and its key keeps working unchanged.
import { afterAll, describe, expect, test } from "bun:test";
import { loadConfig } from "../../src/config";
import { migrate } from "../../src/db/client";
import { createLogger } from "../../src/lib/log";
import { sha256Hex } from "../../src/lib/secrets";
import { startServer, type Running } from "../../src/runtime";
import { databaseBefore } from "../support/migrations";
import { tempDir } from "../support/temp-dirs";

let running: Running | undefined;
afterAll(() => running?.stop());

describe("migration 0025 (people and sessions)", () => {
  test("old accounts, keys and web sessions come through; the session now acts on the API", async () => {
    const dataDir = tempDir();
    const old = await databaseBefore("0025_people_sessions", dataDir);
    const key = `bb_live_${"k".repeat(43)}`;
    const secret = `bb_ws_${"s".repeat(43)}`;
    const now = Date.now();
    await old.client.execute("INSERT INTO accounts (id, name, plan_id, is_admin, email) VALUES ('acc_old', 'Old owner', 'team', 1, 'old@example.com')");
    await old.client.execute({ sql: "INSERT INTO api_keys (id, account_id, name, hash, hint) VALUES ('key_old', 'acc_old', 'old', ?, 'bb_live_…kkkk')", args: [sha256Hex(key)] });
    await old.client.execute({
      sql: "INSERT INTO web_sessions (hash, account_id, via, credential_id, expires_at, created_at) VALUES (?, 'acc_old', 'api_key', 'key_old', ?, ?)",
      args: [sha256Hex(secret), now + 3600_000, now],
    });
    await migrate(old.client);
    const rows = await old.client.execute("SELECT id, via, credential_id, last_seen_at, expires_at FROM web_sessions");
    expect(rows.rows).toHaveLength(1);
    expect(String(rows.rows[0]!.id)).toStartWith("ses_");
    expect(Number(rows.rows[0]!.last_seen_at)).toBe(now);
    const account = await old.client.execute("SELECT password_hash, deactivated_at, email FROM accounts WHERE id = 'acc_old'");
    expect(account.rows[0]).toMatchObject({ password_hash: null, deactivated_at: null, email: "old@example.com" });
    old.close();

    running = await startServer(loadConfig({ BRAINBOX_PORT: "0", BRAINBOX_DATA_DIR: dataDir, BRAINBOX_LOG_LEVEL: "error" }), createLogger("error"));
    expect(running.firstKey).toBeUndefined();
    expect(running.setupUrl).toBeUndefined();
    expect((await fetch(`${running.url}/api/v1/brains`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
    const who = await fetch(`${running.url}/api/v1/session`, { headers: { cookie: `bb_session=${secret}` } });
    expect(((await who.json()) as any).session.method).toBe("api_key");
    // The old session ends with its key, as before.
    await fetch(`${running.url}/api/user/api-keys/key_old`, { method: "DELETE", headers: { authorization: `Bearer ${key}` } });
    expect((await fetch(`${running.url}/api/v1/session`, { headers: { cookie: `bb_session=${secret}` } })).status).toBe(401);
  });
});
