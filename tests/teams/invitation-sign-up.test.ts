// An invited colleague without an account (issue 56), over real HTTP: the link's token shows the invitation
// keyless, then makes the person (own team, password), accepts the invitation and opens a session. Unknown,
// used, revoked and expired tokens, an email that already has an account, a short password and a cross-site
// post each get a clear error; nothing is made by a refused sign-up.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cookieOf, asPage, signedIn } from "../people/support";
import { expectJson, NO_SOURCES, startTestServer, type TestServer } from "../support/server";
import { newBrain } from "../support/sources";
import { person, type Person } from "./support";

let s: TestServer;
let ana: Person;
let brainId: string;
let teamId: string;
beforeAll(async () => {
  s = await startTestServer(NO_SOURCES);
  ana = await person(s, "Ana");
  brainId = await newBrain(s, "Handbook", ana.key);
  teamId = (await expectJson(await s.api("/api/v1/teams", { method: "POST", json: { name: "Platform" }, key: ana.key }), 201)).team.id;
});
afterAll(() => s?.close());

const invite = async (json: Record<string, unknown>) => expectJson(await s.api("/api/v1/invitations", { method: "POST", json, key: ana.key }), 201);
const post = (path: string, json: unknown, headers: Record<string, string> = {}) =>
  fetch(`${s.url}${path}`, { method: "POST", headers: { "content-type": "application/json", origin: s.url, ...headers }, body: JSON.stringify(json) });
const signUp = (json: unknown, headers?: Record<string, string>) => post("/api/v1/invitations/sign-up", json, headers);
const check = (token: string) => post("/api/v1/invitations/check", { token });
const fresh = () => `new.${crypto.randomUUID().slice(0, 8)}@example.test`;
const accountsWith = async (email: string) => Number((await s.ctx.database.client.execute({ sql: "SELECT count(*) AS n FROM accounts WHERE email = ?", args: [email] })).rows[0]!.n);

describe("checking an invitation by its token, keyless", () => {
  test("shows who invited, to what and for which email, and whether that email has an account; nothing else", async () => {
    const email = fresh();
    const made = await invite({ email, teamId, teamRole: "member", brainId, brainRole: "viewer" });
    const body = await expectJson(await check(made.token), 200);
    expect(body).toEqual({
      invitation: {
        email,
        status: "pending",
        expiresAt: made.invitation.expiresAt,
        invitedBy: { name: "Ana" },
        team: { id: teamId, role: "member", name: "Platform" },
        brain: { id: brainId, role: "viewer", name: "Handbook" },
      },
      accountExists: false,
    });
    expect(JSON.stringify(body)).not.toContain(ana.email);
    expect(JSON.stringify(body)).not.toContain(ana.id);
    const forAna = await invite({ email: ana.email, brainId });
    expect((await expectJson(await check(forAna.token), 200)).accountExists).toBe(true);
    expect((await expectJson(await check("bb_inv_nothing"), 404)).error).toMatchObject({ code: "not_found", field: "token" });
    await expectJson(await check(""), 422);
  });
});

describe("signing up with an invitation", () => {
  test("makes the person with the invited email and their own team, accepts the invitation, opens a password session", async () => {
    const email = fresh();
    const made = await invite({ email, brainId, brainRole: "viewer" });
    const res = await signUp({ token: made.token, name: "  Bo  ", password: "bos long password" });
    const body = await expectJson(res, 201);
    expect(body.person).toMatchObject({ name: "Bo", email, isAdmin: false, hasPassword: true });
    expect(body.session.method).toBe("password");
    expect(body.invitation).toMatchObject({ status: "accepted", brain: { id: brainId, role: "viewer" } });
    expect(res.headers.get("cache-control")).toBe("no-store");
    const cookie = cookieOf(res)!;
    expect(cookie).toBeTruthy();

    const me = await expectJson(await asPage(s, "/api/v1/session", cookie), 200);
    expect(me).toMatchObject({ person: { id: body.person.id, email }, via: "session", session: { method: "password" } });
    const shared = await expectJson(await asPage(s, `/api/v1/brains/${brainId}`, cookie), 200);
    expect(shared.brain?.id ?? shared.id).toBe(brainId);
    const teams = await expectJson(await asPage(s, "/api/v1/teams", cookie), 200);
    expect(teams.teams.some((t: any) => t.id === `team_${body.person.id}`)).toBe(true);
    // The password signs in later, too.
    expect(await signedIn(s, email, "bos long password")).toBeTruthy();

    const { events } = await expectJson(await s.api("/api/v1/audit?limit=200"), 200);
    const about = events.filter((e: any) => e.actor?.id === body.person.id);
    const actions = about.map((e: any) => e.action);
    for (const action of ["person.created", "password.set", "invitation.accepted", "session.signed_in"]) expect(actions).toContain(action);
    expect(about.find((e: any) => e.action === "person.created").details).toMatchObject({ method: "invitation", invitation: made.invitation.id });
    expect(JSON.stringify(events)).not.toContain("bos long password");

    // The link works once.
    const again = await expectJson(await signUp({ token: made.token, name: "Bo", password: "another password" }), 409);
    expect(again.error).toMatchObject({ code: "conflict", reason: "accepted" });
  });

  test("an unknown token is a 404; a revoked or expired invitation a 409 with its reason; nothing is made", async () => {
    expect((await expectJson(await signUp({ token: "bb_inv_nothing", name: "X", password: "long enough pw" }), 404)).error).toMatchObject({ code: "not_found", field: "token" });
    expect((await expectJson(await signUp({ token: "garbage", name: "X", password: "long enough pw" }), 404)).error.field).toBe("token");

    const revokedEmail = fresh();
    const revoked = await invite({ email: revokedEmail, teamId });
    expect((await s.api(`/api/v1/invitations/${revoked.invitation.id}`, { method: "DELETE", key: ana.key })).status).toBe(204);
    expect((await expectJson(await signUp({ token: revoked.token, name: "R", password: "long enough pw" }), 409)).error).toMatchObject({ code: "conflict", reason: "revoked" });
    expect((await expectJson(await check(revoked.token), 200)).invitation.status).toBe("revoked");

    const expiredEmail = fresh();
    const expired = await invite({ email: expiredEmail, teamId });
    await s.ctx.database.client.execute({ sql: "UPDATE invitations SET expires_at = ? WHERE id = ?", args: [Date.now() - 1, expired.invitation.id] });
    expect((await expectJson(await signUp({ token: expired.token, name: "E", password: "long enough pw" }), 409)).error).toMatchObject({ code: "conflict", reason: "expired" });
    expect(await accountsWith(revokedEmail)).toBe(0);
    expect(await accountsWith(expiredEmail)).toBe(0);
  });

  test("an email that already has an account: 409 account_exists (sign in and accept instead); the account is untouched", async () => {
    const made = await invite({ email: ana.email, brainId });
    const res = await signUp({ token: made.token, name: "Impostor", password: "an impostors password" });
    expect((await expectJson(res, 409)).error).toMatchObject({ code: "conflict", reason: "account_exists" });
    expect(res.headers.get("set-cookie")).toBeNull();
    expect(await accountsWith(ana.email)).toBe(1);
    expect((await expectJson(await check(made.token), 200)).invitation.status).toBe("pending");
    // Accepting with the existing account still works.
    expect((await expectJson(await s.api("/api/v1/invitations/accept", { method: "POST", json: { token: made.token }, key: ana.key }), 200)).invitation.status).toBe("accepted");
  });

  test("a short password is a 422 naming the field; an empty name and a missing field are 422; the invitation stays open", async () => {
    const email = fresh();
    const made = await invite({ email, teamId });
    const short = await expectJson(await signUp({ token: made.token, name: "Cy", password: "short" }), 422);
    expect(short.error).toMatchObject({ code: "invalid_request", field: "password" });
    expect((await expectJson(await signUp({ token: made.token, name: "   ", password: "long enough pw" }), 422)).error.field).toBe("name");
    await expectJson(await signUp({ token: made.token, password: "long enough pw" }), 422);
    expect(await accountsWith(email)).toBe(0);
    expect((await expectJson(await check(made.token), 200)).invitation.status).toBe("pending");
  });

  test("a cross-site post is refused (403 cross_site_request) and makes nothing; a client without Origin is not affected", async () => {
    const email = fresh();
    const made = await invite({ email, teamId });
    const evil = await signUp({ token: made.token, name: "Dee", password: "long enough pw" }, { origin: "https://evil.example", "sec-fetch-site": "cross-site" });
    expect((await expectJson(evil, 403)).error.code).toBe("cross_site_request");
    expect((await expectJson(await post("/api/v1/invitations/check", { token: made.token }, { origin: "https://evil.example", "sec-fetch-site": "cross-site" }), 403)).error.code).toBe("cross_site_request");
    expect(await accountsWith(email)).toBe(0);
    const plain = await fetch(`${s.url}/api/v1/invitations/sign-up`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ token: made.token, name: "Dee", password: "long enough pw" }) });
    expect((await expectJson(plain, 201)).person.email).toBe(email);
  });

  test("two sign-ups with one link at once: exactly one person is made", async () => {
    const email = fresh();
    const made = await invite({ email, teamId });
    const answers = await Promise.all([1, 2].map(() => signUp({ token: made.token, name: "Twin", password: "long enough pw" })));
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(await accountsWith(email)).toBe(1);
  });
});
