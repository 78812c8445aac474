// Migration 0026 on a database made by the previous schema (issue 56): every account becomes a person with
// a team of its own (its admin); every brain and brain set keeps its owner; public brains stay readable by
// every signed-in account; existing API keys, OAuth access tokens, paid brains and usage keep working.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { loadConfig } from "../../src/config";
import { createLogger } from "../../src/lib/log";
import { sha256Hex } from "../../src/lib/secrets";
import { startServer, type Running } from "../../src/runtime";
import { databaseBefore } from "../support/migrations";
import { expectJson, tempDir } from "../support/server";
import { periodBounds } from "../../src/modules/plans/limits";

const ownerKey = `bb_live_${"o".repeat(43)}`;
const otherKey = `bb_live_${"x".repeat(43)}`;
const otherToken = `bb_at_${"t".repeat(43)}`;
let running: Running;

beforeAll(async () => {
  const dir = tempDir();
  const db = await databaseBefore("0026", dir);
  const month = periodBounds("month").start;
  await db.client.executeMultiple(`
    INSERT INTO accounts (id, name, plan_id, is_admin) VALUES ('acc_owner', 'Owner', 'pro', 1), ('acc_other', 'Other', 'free', 0);
    INSERT INTO api_keys (id, account_id, name, hash, hint) VALUES
      ('key_o', 'acc_owner', 'Owner key', '${sha256Hex(ownerKey)}', 'bb_live_…oooo'),
      ('key_x', 'acc_other', 'Other key', '${sha256Hex(otherKey)}', 'bb_live_…xxxx');
    INSERT INTO brains (id, account_id, name, slug, visibility) VALUES
      ('brn_priv', 'acc_owner', 'Private', 'private', 'private'),
      ('brn_pub', 'acc_owner', 'Public', 'public', 'public'),
      ('brn_paid', 'acc_owner', 'Paid', 'paid', 'public');
    INSERT INTO paid_brains (brain_id, price_atomic, pay_to) VALUES ('brn_paid', 10000, '0x0000000000000000000000000000000000000001');
    INSERT INTO brain_sets (id, account_id, name, primary_brain_id) VALUES ('set_1', 'acc_owner', 'Set', 'brn_priv');
    INSERT INTO brain_set_advisors (set_id, brain_id, position) VALUES ('set_1', 'brn_pub', 0);
    INSERT INTO oauth_clients (id, auth_method, name, redirect_uris, grant_types, metadata) VALUES ('cli', 'none', 'Client', '[]', '[]', '{}');
    INSERT INTO oauth_grants (id, account_id, client_id, scope) VALUES ('grt', 'acc_other', 'cli', 'brains:read ask');
    INSERT INTO oauth_tokens (hash, kind, grant_id, expires_at) VALUES ('${sha256Hex(otherToken)}', 'access', 'grt', ${Date.now() + 3_600_000});
    INSERT INTO usage_counters (account_id, counter, period_start, used) VALUES ('acc_owner', 'quota', ${month}, 2);
  `);
  db.close();
  // A paid brain needs a facilitator configured to start; it is not called by these reads.
  const config = loadConfig({ BRAINBOX_PORT: "0", BRAINBOX_DATA_DIR: dir, BRAINBOX_LOG_LEVEL: "error", BRAINBOX_X402_FACILITATOR_URL: "http://127.0.0.1:9" });
  running = await startServer(config, createLogger("error"));
  expect(running.firstKey).toBeFalsy();
});
afterAll(() => running.stop());

const get = (path: string, bearer: string) => fetch(running.url + path, { headers: { authorization: `Bearer ${bearer}` } });

test("every account is a person with a team of its own, of which it is the admin", async () => {
  for (const [key, name] of [
    [ownerKey, "Owner"],
    [otherKey, "Other"],
  ]) {
    const { teams } = await expectJson(await get("/api/v1/teams", key!), 200);
    expect(teams).toEqual([expect.objectContaining({ name, personal: true, role: "admin", plan: null })]);
  }
});

test("the owner's key still owns every brain, the paid one with its terms, and the brain set", async () => {
  const { brains } = await expectJson(await get("/api/v1/brains", ownerKey), 200);
  expect(brains.map((b: any) => [b.id, b.role]).sort()).toEqual([
    ["brn_paid", "owner"],
    ["brn_priv", "owner"],
    ["brn_pub", "owner"],
  ]);
  const paid = await expectJson(await get("/api/v1/brains/brn_paid", ownerKey), 200);
  expect(paid.brain).toMatchObject({ owned: true, paid: { priceAtomic: "10000", payTo: "0x0000000000000000000000000000000000000001" } });
  const { brainSets } = await expectJson(await get("/api/v1/brain-sets", ownerKey), 200);
  expect(brainSets).toEqual([expect.objectContaining({ id: "set_1", role: "owner", primary: { id: "brn_priv", name: "Private" }, advisors: [{ id: "brn_pub", name: "Public" }] })]);
  // The quota used before the migration is still counted.
  expect((await expectJson(await get("/api/v1/account", ownerKey), 200)).usage.quota).toMatchObject({ used: 2 });
});

test("another account reads the public brain (viewer) and nothing else, by key and by OAuth token", async () => {
  for (const bearer of [otherKey, otherToken]) {
    const { brains } = await expectJson(await get("/api/brains", bearer), 200);
    expect(brains.map((b: any) => [b.id, b.role])).toEqual([["brn_pub", "viewer"]]);
    await expectJson(await get("/api/v1/brains/brn_pub", bearer), 200);
    await expectJson(await get("/api/v1/brains/brn_priv", bearer), 404);
    await expectJson(await get("/api/v1/brains/brn_paid", bearer), 404);
    await expectJson(await get("/api/v1/brain-sets/set_1", bearer), 404);
  }
  // The paid brain is still sold on the paid rail.
  const bazaar = await expectJson(await fetch(`${running.url}/api/x402/bazaar`), 200);
  expect(JSON.stringify(bazaar)).toContain("brn_paid");
});
