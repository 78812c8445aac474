// A team's key policy over real HTTP: its admin requires read-only and expiring keys; a member's new key
// must obey the strictest policy of their teams (403 / 422 naming the field), keys made before stay valid,
// a member cannot change the policy, and the change is in the audit log.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { expectJson, NO_SOURCES, startTestServer, type TestServer } from "../support/server";
import { person, type Person } from "./support";

let s: TestServer;
let admin: Person;
let member: Person;
beforeAll(async () => {
  s = await startTestServer(NO_SOURCES);
  [admin, member] = await Promise.all([person(s, "Ines"), person(s, "Joe")]);
});
afterAll(() => s.close());

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
const makeKey = (who: Person, json: Record<string, unknown>) => s.api("/api/user/api-keys", { method: "POST", key: who.key, json: { name: "k", ...json } });

test("a team's key policy binds its members' new keys, not the keys they made before", async () => {
  const { team } = await expectJson(await s.api("/api/v1/teams", { method: "POST", json: { name: "Ops" }, key: admin.key }), 201);
  await expectJson(await s.api(`/api/v1/teams/${team.id}/members`, { method: "POST", json: { accountId: member.id }, key: admin.key }), 201);
  const before = (await expectJson(await makeKey(member, {}), 201)).key as string;
  expect(team.keyPolicy).toEqual({ readOnly: false, maxDays: null });

  // A member may not set it; the admin may.
  expect((await expectJson(await s.api(`/api/v1/teams/${team.id}`, { method: "PATCH", json: { keyPolicy: { readOnly: true } }, key: member.key }), 403)).error.code).toBe("forbidden");
  const set = await expectJson(await s.api(`/api/v1/teams/${team.id}`, { method: "PATCH", json: { keyPolicy: { readOnly: true, maxDays: 30 } }, key: admin.key }), 200);
  expect(set.team.keyPolicy).toEqual({ readOnly: true, maxDays: 30 });

  const writable = await expectJson(await makeKey(member, { expiresAt: inDays(10) }), 403);
  expect(writable.error).toMatchObject({ code: "forbidden", field: "readOnly" });
  expect(writable.error.message).toContain("Ops");
  expect((await expectJson(await makeKey(member, { readOnly: true }), 422)).error.field).toBe("expiresAt");
  expect((await expectJson(await makeKey(member, { readOnly: true, expiresAt: inDays(31) }), 422)).error.field).toBe("expiresAt");
  const ok = await expectJson(await makeKey(member, { readOnly: true, expiresAt: inDays(29) }), 201);
  expect(ok).toMatchObject({ readOnly: true });

  // The key made before the rule still works, writes included.
  expect((await s.api("/api/v1/brains", { method: "POST", key: before, json: { name: "Made before the rule" } })).status).toBe(201);

  // The strictest of several teams: a second team with a shorter expiry wins.
  const { team: other } = await expectJson(await s.api("/api/v1/teams", { method: "POST", json: { name: "Audit" }, key: admin.key }), 201);
  await expectJson(await s.api(`/api/v1/teams/${other.id}/members`, { method: "POST", json: { accountId: member.id }, key: admin.key }), 201);
  await expectJson(await s.api(`/api/v1/teams/${other.id}`, { method: "PATCH", json: { keyPolicy: { maxDays: 7 } }, key: admin.key }), 200);
  expect((await expectJson(await makeKey(member, { readOnly: true, expiresAt: inDays(10) }), 422)).error.message).toContain("7 days");
  await expectJson(await makeKey(member, { readOnly: true, expiresAt: inDays(6) }), 201);

  // Bad policies are 422 naming the field; clearing a rule takes it away.
  expect((await expectJson(await s.api(`/api/v1/teams/${team.id}`, { method: "PATCH", json: { keyPolicy: { maxDays: 0 } }, key: admin.key }), 422)).error.field).toContain("maxDays");
  expect((await expectJson(await s.api(`/api/v1/teams/${team.id}`, { method: "PATCH", json: { keyPolicy: {} }, key: admin.key }), 422)).error.code).toBe("invalid_request");
  await expectJson(await s.api(`/api/v1/teams/${team.id}`, { method: "PATCH", json: { keyPolicy: { readOnly: false, maxDays: null } }, key: admin.key }), 200);
  await expectJson(await s.api(`/api/v1/teams/${other.id}`, { method: "PATCH", json: { keyPolicy: { maxDays: null } }, key: admin.key }), 200);
  await expectJson(await makeKey(member, {}), 201);

  const events = (await s.ctx.database.client.execute({ sql: "SELECT details FROM audit_events WHERE action = 'team.key_policy_changed' AND team_id = ? ORDER BY id", args: [team.id] })).rows;
  expect(events.map((e) => JSON.parse(String(e.details)))).toEqual([{ readOnly: true, maxDays: 30 }, { readOnly: false, maxDays: null }]);
});
