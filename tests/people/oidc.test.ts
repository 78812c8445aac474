// Single sign-on against a real OpenID provider (oidc-provider on loopback): the sign-in screen's list, the
// first sign-in making the person just in time with a working session, the second reusing them, linking to
// a person who already has the email (only when the provider verified it), the claim → admin mapping, and
// a deactivated person kept out.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectJson, type TestServer } from "../support/server";
import type { OidcRig } from "../support/oidc-rig";
import { ssoRoleOf } from "../../src/modules/sso/identities";
import { countRows, lastAudit, sessionCookieOf, signOn, sql, startSsoPair } from "./oidc-support";
import { asPage, newPerson } from "./support";

let s: TestServer;
let rig: OidcRig;
beforeAll(async () => {
  ({ s, rig } = await startSsoPair({ BRAINBOX_OIDC_ADMIN_VALUES: "brainbox-admins" }));
});
afterAll(async () => {
  await s?.close();
  await rig?.close();
});

const grace = { sub: "grace-1", email: "Grace@Example.org", email_verified: true, name: "Grace Hopper" };

describe("GET /api/v1/session/providers", () => {
  test("names the provider and its start link, to anyone", async () => {
    const body = await expectJson(await fetch(`${s.url}/api/v1/session/providers`), 200);
    expect(body).toEqual({ password: true, providers: [{ id: "oidc", name: "Loopback ID", startUrl: "/auth/oidc/start" }] });
  });
});

describe("sign-in through the provider", () => {
  let firstId = "";

  test("the first sign-in makes the person and opens a session that the API accepts", async () => {
    const people = await countRows(s, "accounts");
    const { res, jar } = await signOn(s, rig, grace);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/");
    const cookie = sessionCookieOf(jar)!;
    expect(cookie).toMatch(/^bb_session=bb_ws_/);
    expect(jar.get("bb_sso")).toBeUndefined(); // the flow cookie is cleared
    expect(await countRows(s, "sso_flows")).toBe(0);

    const who = await expectJson(await asPage(s, "/api/v1/session", cookie), 200);
    expect(who).toMatchObject({ via: "session", person: { email: "grace@example.org", name: "Grace Hopper", isAdmin: false, hasPassword: false }, session: { method: "oidc" } });
    firstId = who.person.id;
    expect((await asPage(s, "/api/v1/brains", cookie)).status).toBe(200);
    expect(await countRows(s, "accounts")).toBe(people + 1);

    const identity = (await sql(s, "SELECT * FROM sso_identities WHERE account_id = ?", [firstId])).rows[0]!;
    expect(identity).toMatchObject({ issuer: rig.issuer, subject: "grace-1", email: "grace@example.org", role: "member" });
    expect((await lastAudit(s, "person.created"))!.details).toMatchObject({ method: "oidc", issuer: rig.issuer });
    const signedIn = await lastAudit(s, "session.signed_in");
    expect(signedIn).toMatchObject({ actor_id: firstId });
    expect(signedIn!.details).toMatchObject({ method: "oidc", provider: "oidc", issuer: rig.issuer, subject: "grace-1", created: true });
  });

  test("the second sign-in is the same person, with a new cookie (the old one ends)", async () => {
    const people = await countRows(s, "accounts");
    const first = await signOn(s, rig, grace);
    const before = sessionCookieOf(first.jar)!;
    const again = await signOn(s, rig, grace, { jar: first.jar });
    expect(again.res.status).toBe(303);
    const after = sessionCookieOf(again.jar)!;
    expect(after).not.toBe(before);
    expect((await asPage(s, "/api/v1/session", before)).status).toBe(401);
    expect((await expectJson(await asPage(s, "/api/v1/session", after), 200)).person.id).toBe(firstId);
    expect(await countRows(s, "accounts")).toBe(people);
    expect((await lastAudit(s, "session.signed_in"))!.details).toMatchObject({ method: "oidc", created: false });
  });

  test("a person who signs in with a password here is linked by a verified email, not duplicated", async () => {
    const ada = await newPerson(s.ctx.db, "ada@example.org", "correct horse battery", "Ada");
    const { res, jar } = await signOn(s, rig, { sub: "ada-at-idp", email: "ADA@example.org", email_verified: true, name: "Ada L." });
    expect(res.status).toBe(303);
    expect((await expectJson(await asPage(s, "/api/v1/session", sessionCookieOf(jar)!), 200)).person).toMatchObject({ id: ada.id, name: "Ada", hasPassword: true });
  });

  test("an unverified email never signs in to the person who has it", async () => {
    const bob = await newPerson(s.ctx.db, "bob@example.org", "correct horse battery", "Bob");
    const { res, jar } = await signOn(s, rig, { sub: "mallory", email: "bob@example.org", email_verified: false });
    expect(res.status).toBe(403);
    expect(res.headers.get("content-type")).toContain("text/html");
    expect(await res.text()).toContain("has not verified this email");
    expect(sessionCookieOf(jar)).toBeNull();
    expect(Number((await sql(s, "SELECT count(*) AS n FROM sso_identities WHERE account_id = ?", [bob.id])).rows[0]!.n)).toBe(0);
    expect((await lastAudit(s, "session.sign_in_failed"))!.details).toMatchObject({ method: "oidc", reason: "email_not_verified", email: "bob@example.org" });
  });

  test("without a domain rule, someone new with an unverified email signs in, but the email is not recorded as theirs", async () => {
    const { res, jar } = await signOn(s, rig, { sub: "newbie-1", email: "claimed@example.org", email_verified: false, name: "Newbie" });
    expect(res.status).toBe(303);
    const who = await expectJson(await asPage(s, "/api/v1/session", sessionCookieOf(jar)!), 200);
    expect(who.person).toMatchObject({ name: "Newbie", email: null });
    expect((await sql(s, "SELECT email FROM sso_identities WHERE subject = 'newbie-1'")).rows[0]!.email).toBe("claimed@example.org");
    // A later sign-in by the same identity is the same person.
    const again = await signOn(s, rig, { sub: "newbie-1", email: "claimed@example.org", email_verified: false });
    expect((await expectJson(await asPage(s, "/api/v1/session", sessionCookieOf(again.jar)!), 200)).person.id).toBe(who.person.id);
  });

  test("the claim mapping: a member of the admin group is a server admin; leaving the group takes it back", async () => {
    const user = { sub: "lin-1", email: "lin@example.org", email_verified: true, groups: ["staff", "brainbox-admins"] };
    const admin = await signOn(s, rig, user);
    const who = await expectJson(await asPage(s, "/api/v1/session", sessionCookieOf(admin.jar)!), 200);
    expect(who.person.isAdmin).toBe(true);
    expect(await ssoRoleOf(s.ctx.db, who.person.id)).toBe("admin");

    const member = await signOn(s, rig, { ...user, groups: ["staff"] });
    expect((await expectJson(await asPage(s, "/api/v1/session", sessionCookieOf(member.jar)!), 200)).person.isAdmin).toBe(false);
    expect(await ssoRoleOf(s.ctx.db, who.person.id)).toBe("member");
    expect((await lastAudit(s, "person.role_changed"))!.details).toMatchObject({ isAdmin: false, method: "oidc" });
  });

  test("an admin made here is not demoted by the provider's groups", async () => {
    const owner = await newPerson(s.ctx.db, "owner@example.org", "correct horse battery", "Owner");
    await sql(s, "UPDATE accounts SET is_admin = 1 WHERE id = ?", [owner.id]);
    const { jar } = await signOn(s, rig, { sub: "owner-1", email: "owner@example.org", email_verified: true, groups: [] });
    expect((await expectJson(await asPage(s, "/api/v1/session", sessionCookieOf(jar)!), 200)).person).toMatchObject({ id: owner.id, isAdmin: true });
  });

  test("a deactivated person is refused, and no session is opened", async () => {
    const first = await signOn(s, rig, { sub: "dee-1", email: "dee@example.org", email_verified: true });
    const id = (await expectJson(await asPage(s, "/api/v1/session", sessionCookieOf(first.jar)!), 200)).person.id;
    await sql(s, "UPDATE accounts SET deactivated_at = ? WHERE id = ?", [Date.now(), id]);
    const sessions = await countRows(s, "web_sessions");
    const { res } = await signOn(s, rig, { sub: "dee-1", email: "dee@example.org", email_verified: true });
    expect(res.status).toBe(403);
    expect(await countRows(s, "web_sessions")).toBe(sessions);
    expect((await lastAudit(s, "session.sign_in_failed"))!.details).toMatchObject({ reason: "account_deactivated" });
  });

  test("an API caller gets the JSON error (Accept: application/json)", async () => {
    const { res } = await signOn(s, rig, { sub: "eve-1", email: "bob@example.org", email_verified: false }, { accept: "application/json" });
    const body = await expectJson(res, 403);
    expect(body.error).toMatchObject({ code: "sso_refused", reason: "email_not_verified" });
  });

  test("returnTo lands on a path of this server, never another site", async () => {
    const start = await fetch(`${s.url}/auth/oidc/start?returnTo=//evil.example/x`, { redirect: "manual" });
    expect(start.status).toBe(303);
    const flows = (await sql(s, "SELECT return_to FROM sso_flows")).rows.map((r) => r.return_to);
    expect(flows).toContain("/");
    expect(flows).not.toContain("//evil.example/x");
  });
});

describe("invitations at the first sign-in", () => {
  test("an open invitation for the verified email is accepted for the person single sign-on makes", async () => {
    const { teams } = await expectJson(await s.api("/api/v1/teams"), 200);
    const team = teams.find((t: any) => t.personal)!;
    const invited = await expectJson(await s.api("/api/v1/invitations", { method: "POST", json: { email: "quinn@example.org", teamId: team.id, teamRole: "member" } }), 201);
    const { jar } = await signOn(s, rig, { sub: "quinn-1", email: "quinn@example.org", email_verified: true, name: "Quinn" });
    const who = await expectJson(await asPage(s, "/api/v1/session", sessionCookieOf(jar)!), 200);
    const { members } = await expectJson(await s.api(`/api/v1/teams/${team.id}/members`), 200);
    expect(members).toContainEqual(expect.objectContaining({ accountId: who.person.id, role: "member" }));
    const row = (await sql(s, "SELECT accepted_by FROM invitations WHERE id = ?", [invited.invitation?.id ?? invited.id])).rows[0]!;
    expect(row.accepted_by).toBe(who.person.id);
  });

  test("an unverified email joins nothing: the invitation stays open for the real holder of the address", async () => {
    const { teams } = await expectJson(await s.api("/api/v1/teams"), 200);
    const team = teams.find((t: any) => t.personal)!;
    const invited = await expectJson(await s.api("/api/v1/invitations", { method: "POST", json: { email: "noor@example.org", teamId: team.id } }), 201);
    const { jar } = await signOn(s, rig, { sub: "noor-fake", email: "noor@example.org", email_verified: false, name: "Not Noor" });
    const who = await expectJson(await asPage(s, "/api/v1/session", sessionCookieOf(jar)!), 200);
    const { members } = await expectJson(await s.api(`/api/v1/teams/${team.id}/members`), 200);
    expect(members.some((m: any) => m.accountId === who.person.id)).toBe(false);
    const row = (await sql(s, "SELECT accepted_at FROM invitations WHERE id = ?", [invited.invitation?.id ?? invited.id])).rows[0]!;
    expect(row.accepted_at).toBeNull();
  });

  test("a person single sign-on makes has a team of their own, like every person", async () => {
    const { jar } = await signOn(s, rig, { sub: "max-1", email: "max@example.org", email_verified: true, name: "Max" });
    const { teams } = await expectJson(await asPage(s, "/api/v1/teams", sessionCookieOf(jar)!), 200);
    expect(teams).toContainEqual(expect.objectContaining({ personal: true, role: "admin" }));
  });
});
