// Teams over real HTTP (issue 56): create, list, get, members add / change role / remove; the last admin
// cannot step down or leave (409); non-members get 404; every change is in the audit log with its team.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectJson, NO_SOURCES, startTestServer, type TestServer } from "../support/server";
import { newBrain } from "../support/sources";
import { person, type Person } from "./support";

let s: TestServer;
let ana: Person;
let bo: Person;
let cy: Person;
beforeAll(async () => {
  s = await startTestServer(NO_SOURCES);
  [ana, bo, cy] = await Promise.all([person(s, "Ana"), person(s, "Bo"), person(s, "Cy")]);
});
afterAll(() => s.close());

const audit = async (teamId: string) =>
  (await s.ctx.database.client.execute({ sql: "SELECT action, actor_id, target_id, details FROM audit_events WHERE team_id = ? ORDER BY id", args: [teamId] })).rows.map(
    (r) => ({ action: r.action, actor: r.actor_id, target: r.target_id }),
  );

describe("teams", () => {
  test("every account has a team of its own, of which it is the admin", async () => {
    const { teams } = await expectJson(await s.api("/api/v1/teams", { key: ana.key }), 200);
    expect(teams).toEqual([expect.objectContaining({ personal: true, role: "admin", plan: null, name: "Ana" })]);
  });

  let teamId: string;
  test("create a team, add members by id and by email, change a role, remove", async () => {
    const created = await expectJson(await s.api("/api/v1/teams", { method: "POST", json: { name: "Platform" }, key: ana.key }), 201);
    teamId = created.team.id;
    expect(created.team).toMatchObject({ name: "Platform", role: "admin", personal: false, plan: null });
    const added = await expectJson(await s.api(`/api/v1/teams/${teamId}/members`, { method: "POST", json: { accountId: bo.id }, key: ana.key }), 201);
    expect(added.member).toMatchObject({ accountId: bo.id, role: "member", email: bo.email });
    await expectJson(await s.api(`/api/v1/teams/${teamId}/members`, { method: "POST", json: { email: cy.email.toUpperCase(), role: "member" }, key: ana.key }), 201);
    // Already a member, unknown person, no one named: clear errors.
    expect((await expectJson(await s.api(`/api/v1/teams/${teamId}/members`, { method: "POST", json: { accountId: bo.id }, key: ana.key }), 409)).error.code).toBe("conflict");
    expect((await expectJson(await s.api(`/api/v1/teams/${teamId}/members`, { method: "POST", json: { email: "nobody@example.test" }, key: ana.key }), 404)).error.field).toBe("email");
    expect((await expectJson(await s.api(`/api/v1/teams/${teamId}/members`, { method: "POST", json: { role: "member" }, key: ana.key }), 422)).error.field).toBe("accountId");

    const { members } = await expectJson(await s.api(`/api/v1/teams/${teamId}/members`, { key: bo.key }), 200);
    expect(members.map((m: any) => [m.accountId, m.role])).toEqual([
      [ana.id, "admin"],
      [bo.id, "member"],
      [cy.id, "member"],
    ]);
    // A member may not manage the team.
    expect((await expectJson(await s.api(`/api/v1/teams/${teamId}/members/${cy.id}`, { method: "PATCH", json: { role: "admin" }, key: bo.key }), 403)).error.code).toBe("forbidden");
    expect((await expectJson(await s.api(`/api/v1/teams/${teamId}/members/${cy.id}`, { method: "DELETE", key: bo.key }), 403)).error.code).toBe("forbidden");
    const promoted = await expectJson(await s.api(`/api/v1/teams/${teamId}/members/${bo.id}`, { method: "PATCH", json: { role: "admin" }, key: ana.key }), 200);
    expect(promoted.member.role).toBe("admin");
    await expectJson(await s.api(`/api/v1/teams/${teamId}/members/${cy.id}`, { method: "DELETE", key: bo.key }), 204);
    expect((await expectJson(await s.api(`/api/v1/teams/${teamId}`, { key: cy.key }), 404)).error.code).toBe("not_found");
    const listed = await expectJson(await s.api("/api/v1/teams", { key: bo.key }), 200);
    expect(listed.teams.map((t: any) => [t.name, t.role])).toEqual([
      ["Bo", "admin"],
      ["Platform", "admin"],
    ]);
  });

  test("the last admin cannot demote or remove themselves (409); another admin first, then they can", async () => {
    const { team } = await expectJson(await s.api("/api/v1/teams", { method: "POST", json: { name: "Solo" }, key: cy.key }), 201);
    expect((await expectJson(await s.api(`/api/v1/teams/${team.id}/members/${cy.id}`, { method: "PATCH", json: { role: "member" }, key: cy.key }), 409)).error.code).toBe("conflict");
    expect((await expectJson(await s.api(`/api/v1/teams/${team.id}/members/${cy.id}`, { method: "DELETE", key: cy.key }), 409)).error.code).toBe("conflict");
    await expectJson(await s.api(`/api/v1/teams/${team.id}/members`, { method: "POST", json: { accountId: ana.id, role: "admin" }, key: cy.key }), 201);
    await expectJson(await s.api(`/api/v1/teams/${team.id}/members/${cy.id}`, { method: "PATCH", json: { role: "member" }, key: cy.key }), 200);
    await expectJson(await s.api(`/api/v1/teams/${team.id}/members/${cy.id}`, { method: "DELETE", key: cy.key }), 204);
    // Two admins demoting each other at once: one wins, the team keeps an admin.
    await expectJson(await s.api(`/api/v1/teams/${team.id}/members`, { method: "POST", json: { accountId: bo.id, role: "admin" }, key: ana.key }), 201);
    const [a, b] = await Promise.all([
      s.api(`/api/v1/teams/${team.id}/members/${bo.id}`, { method: "PATCH", json: { role: "member" }, key: ana.key }),
      s.api(`/api/v1/teams/${team.id}/members/${ana.id}`, { method: "PATCH", json: { role: "member" }, key: bo.key }),
    ]);
    // The loser is 409 (the last admin) or, if the winner demoted it first, 403 (no longer an admin).
    const statuses = [a.status, b.status].sort();
    expect(statuses[0]).toBe(200);
    expect([403, 409]).toContain(statuses[1]!);
    const { members } = await expectJson(await s.api(`/api/v1/teams/${team.id}/members`, { key: ana.key }), 200);
    expect(members.filter((m: any) => m.role === "admin")).toHaveLength(1);
  });

  test("a team's brain: every member has its team role on it; leaving the team loses it", async () => {
    const { team } = await expectJson(await s.api("/api/v1/teams", { method: "POST", json: { name: "Docs" }, key: ana.key }), 201);
    await expectJson(await s.api(`/api/v1/teams/${team.id}/members`, { method: "POST", json: { accountId: bo.id }, key: ana.key }), 201);
    const { brain } = await expectJson(await s.api("/api/v1/brains", { method: "POST", json: { name: "Team handbook", teamId: team.id }, key: ana.key }), 201);
    expect((await expectJson(await s.api(`/api/v1/brains/${brain.id}`, { key: bo.key }), 200)).brain.role).toBe("owner");
    // The team's share can be lowered: the maker stays owner by their own share.
    await expectJson(await s.api(`/api/v1/brains/${brain.id}/shares/teams/${team.id}`, { method: "PUT", json: { role: "viewer" }, key: ana.key }), 200);
    expect((await expectJson(await s.api(`/api/v1/brains/${brain.id}`, { key: bo.key }), 200)).brain.role).toBe("viewer");
    await expectJson(await s.api(`/api/v1/teams/${team.id}/members/${bo.id}`, { method: "DELETE", key: bo.key }), 204);
    await expectJson(await s.api(`/api/v1/brains/${brain.id}`, { key: bo.key }), 404);
    // A brain for a team one is not in: 404 on the team, nothing created.
    expect((await expectJson(await s.api("/api/v1/brains", { method: "POST", json: { name: "Sneaky", teamId: team.id }, key: cy.key }), 404)).error.field).toBe("teamId");
    expect((await expectJson(await s.api("/api/v1/brains", { key: cy.key }), 200)).brains.map((b: any) => b.name)).not.toContain("Sneaky");
  });

  test("non-members get 404 on every team route; bad input is 422", async () => {
    const { team } = await expectJson(await s.api("/api/v1/teams", { method: "POST", json: { name: "Hidden" }, key: ana.key }), 201);
    for (const [method, path, json] of [
      ["GET", `/api/v1/teams/${team.id}`],
      ["GET", `/api/v1/teams/${team.id}/members`],
      ["PATCH", `/api/v1/teams/${team.id}`, { name: "Mine" }],
      ["POST", `/api/v1/teams/${team.id}/members`, { accountId: cy.id }],
      ["PATCH", `/api/v1/teams/${team.id}/members/${ana.id}`, { role: "member" }],
      ["DELETE", `/api/v1/teams/${team.id}/members/${ana.id}`],
    ] as Array<[string, string, unknown?]>)
      expect((await expectJson(await s.api(path, { method, key: cy.key, ...(json ? { json } : {}) }), 404)).error.code).toBe("not_found");
    await expectJson(await s.api("/api/v1/teams", { method: "POST", json: { name: "   " }, key: ana.key }), 422);
    await expectJson(await s.api(`/api/v1/teams/${team.id}/members/${ana.id}`, { method: "PATCH", json: { role: "owner" }, key: ana.key }), 422);
    // The team's plan is the installation admin's to set, not the team admin's.
    expect((await expectJson(await s.api(`/api/v1/teams/${team.id}`, { method: "PATCH", json: { plan: "team" }, key: ana.key }), 403)).error.code).toBe("forbidden");
  });

  test("team events are in the audit log under the team", async () => {
    const { team } = await expectJson(await s.api("/api/v1/teams", { method: "POST", json: { name: "Audited" }, key: ana.key }), 201);
    await expectJson(await s.api(`/api/v1/teams/${team.id}/members`, { method: "POST", json: { accountId: bo.id }, key: ana.key }), 201);
    await expectJson(await s.api(`/api/v1/teams/${team.id}/members/${bo.id}`, { method: "PATCH", json: { role: "admin" }, key: ana.key }), 200);
    await expectJson(await s.api(`/api/v1/teams/${team.id}/members/${bo.id}`, { method: "DELETE", key: ana.key }), 204);
    const brainId = await newBrain(s, "Audited brain", ana.key);
    await expectJson(await s.api(`/api/v1/brains/${brainId}/shares/teams/${team.id}`, { method: "PUT", json: { role: "editor" }, key: ana.key }), 200);
    await expectJson(await s.api(`/api/v1/brains/${brainId}/shares/teams/${team.id}`, { method: "DELETE", key: ana.key }), 204);
    expect(await audit(team.id)).toEqual([
      { action: "team.created", actor: ana.id, target: team.id },
      { action: "team.member_added", actor: ana.id, target: bo.id },
      { action: "team.member_role_changed", actor: ana.id, target: bo.id },
      { action: "team.member_removed", actor: ana.id, target: bo.id },
      { action: "share.changed", actor: ana.id, target: brainId },
      { action: "share.removed", actor: ana.id, target: brainId },
    ]);
  });

  test("GET /api/v1/audit: a team's admins read its events; a plain member reads only their own", async () => {
    const { team } = await expectJson(await s.api("/api/v1/teams", { method: "POST", json: { name: "Read log" }, key: ana.key }), 201);
    await expectJson(await s.api(`/api/v1/teams/${team.id}/members`, { method: "POST", json: { accountId: cy.id }, key: ana.key }), 201);
    await expectJson(await s.api(`/api/v1/teams/${team.id}/members`, { method: "POST", json: { accountId: bo.id }, key: ana.key }), 201);
    const read = async (key: string) =>
      (await expectJson(await s.api(`/api/v1/audit?teamId=${team.id}&limit=200`, { key }), 200)).events.map((e: any) => [e.action, e.target?.id]);
    // Ana is the team's admin: every event of the team, newest first, by whoever did it.
    expect(await read(ana.key)).toEqual([
      ["team.member_added", bo.id],
      ["team.member_added", cy.id],
      ["team.created", team.id],
    ]);
    // Cy is a member: the team's events are not theirs to read, only what was done to their own account.
    expect(await read(cy.key)).toEqual([["team.member_added", cy.id]]);
    await expectJson(await s.api(`/api/v1/teams/${team.id}/members/${cy.id}`, { method: "PATCH", json: { role: "admin" }, key: ana.key }), 200);
    expect((await read(cy.key)).length).toBe(4);
  });
});
