// Invitations over real HTTP (issue 56), mailed through a real SMTP server on loopback (smtp-server):
// the link arrives by mail and is shown to the inviter once; the invited person accepts it with their own
// credential; reused, revoked, expired, unknown and other-email tokens each get a clear error.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SMTPServer } from "smtp-server";
import { expectJson, NO_SOURCES, startTestServer, type TestServer } from "../support/server";
import { newBrain } from "../support/sources";
import { person, type Person } from "./support";

const mails: string[] = [];
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS", "AUTH"],
  onData(stream, _session, done) {
    let data = "";
    stream.on("data", (chunk) => (data += chunk));
    stream.on("end", () => {
      mails.push(data);
      done();
    });
  },
});

let s: TestServer;
let ana: Person;
let bo: Person;
let cy: Person;
let teamId: string;
beforeAll(async () => {
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", () => resolve()));
  const port = (smtp.server.address() as { port: number }).port;
  s = await startTestServer({ ...NO_SOURCES, BRAINBOX_SMTP_URL: `smtp://127.0.0.1:${port}`, BRAINBOX_SMTP_FROM: "Brainbox <noreply@example.test>" });
  [ana, bo, cy] = await Promise.all([person(s, "Ana"), person(s, "Bo"), person(s, "Cy")]);
  teamId = (await expectJson(await s.api("/api/v1/teams", { method: "POST", json: { name: "Platform" }, key: ana.key }), 201)).team.id;
});
afterAll(async () => {
  await s.close();
  smtp.close();
});

const invite = async (json: Record<string, unknown>, key = ana.key) => expectJson(await s.api("/api/v1/invitations", { method: "POST", json, key }), 201);
const accept = (token: string, key: string) => s.api("/api/v1/invitations/accept", { method: "POST", json: { token }, key });
/** A mail's text with quoted-printable soft breaks and escapes undone. */
const decoded = (mail: string) => mail.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, h) => String.fromCharCode(parseInt(h, 16)));

describe("invitations", () => {
  test("an admin invites by email: the mail arrives with the link; the invited person accepts once", async () => {
    const sent = mails.length;
    const made = await invite({ email: bo.email.toUpperCase(), teamId, teamRole: "member" });
    expect(made).toMatchObject({ emailed: true, invitation: { email: bo.email, team: { id: teamId, role: "member" }, brain: null, status: "pending" } });
    expect(made.token).toStartWith("bb_inv_");
    expect(made.url).toBe(`${s.url}/#/invitation/${made.token}`);
    expect(mails.length).toBe(sent + 1);
    const mail = decoded(mails.at(-1)!);
    expect(mail).toContain(made.url);
    expect(mail).toContain(`To: ${bo.email}`);
    // The token is never stored nor listed.
    const listed = await expectJson(await s.api("/api/v1/invitations", { key: ana.key }), 200);
    expect(JSON.stringify(listed)).not.toContain(made.token);
    const rows = await s.ctx.database.client.execute("SELECT token_hash FROM invitations");
    expect(JSON.stringify(rows.rows)).not.toContain(made.token);

    const accepted = await expectJson(await accept(made.token, bo.key), 200);
    expect(accepted.invitation.status).toBe("accepted");
    const { members } = await expectJson(await s.api(`/api/v1/teams/${teamId}/members`, { key: bo.key }), 200);
    expect(members.find((m: any) => m.accountId === bo.id).role).toBe("member");
    const reused = await expectJson(await accept(made.token, bo.key), 409);
    expect(reused.error).toMatchObject({ code: "conflict", reason: "accepted" });
  });

  test("another person's credential, an unknown token, an expired and a revoked invitation: clear errors", async () => {
    const made = await invite({ email: "dee@example.test", teamId });
    const other = await expectJson(await accept(made.token, cy.key), 403);
    expect(other.error).toMatchObject({ code: "forbidden", reason: "email_mismatch" });
    expect((await expectJson(await accept("bb_inv_nothing", cy.key), 404)).error.code).toBe("not_found");
    expect((await expectJson(await accept("garbage", cy.key), 404)).error.field).toBe("token");
    await expectJson(await accept("", cy.key), 422);

    const toExpire = await invite({ email: cy.email, teamId });
    await s.ctx.database.client.execute({ sql: "UPDATE invitations SET expires_at = ? WHERE id = ?", args: [Date.now() - 1, toExpire.invitation.id] });
    expect((await expectJson(await accept(toExpire.token, cy.key), 409)).error).toMatchObject({ code: "conflict", reason: "expired" });

    const toRevoke = await invite({ email: cy.email, teamId });
    await expectJson(await s.api(`/api/v1/invitations/${toRevoke.invitation.id}`, { method: "DELETE", key: ana.key }), 204);
    expect((await expectJson(await accept(toRevoke.token, cy.key), 409)).error).toMatchObject({ code: "conflict", reason: "revoked" });
    // None of them made Cy a member.
    await expectJson(await s.api(`/api/v1/teams/${teamId}`, { key: cy.key }), 404);
    // Someone else cannot revoke (404, like a missing invitation).
    await expectJson(await s.api(`/api/v1/invitations/${made.invitation.id}`, { method: "DELETE", key: cy.key }), 404);
  });

  test("an invitation to a brain gives the brain role on acceptance; only owners and team admins invite", async () => {
    const brainId = await newBrain(s, "Handbook", ana.key);
    const made = await invite({ email: cy.email, brainId, brainRole: "editor" });
    await expectJson(await s.api(`/api/v1/brains/${brainId}`, { key: cy.key }), 404);
    await expectJson(await accept(made.token, cy.key), 200);
    expect((await expectJson(await s.api(`/api/v1/brains/${brainId}`, { key: cy.key }), 200)).brain.role).toBe("editor");
    // An editor may not invite to the brain; a member may not invite to the team; a stranger sees 404.
    expect((await expectJson(await s.api("/api/v1/invitations", { method: "POST", json: { email: "x@example.test", brainId }, key: cy.key }), 403)).error.code).toBe("forbidden");
    expect((await expectJson(await s.api("/api/v1/invitations", { method: "POST", json: { email: "x@example.test", teamId }, key: bo.key }), 403)).error.code).toBe("forbidden");
    const stranger = await person(s, "Stranger");
    expect((await expectJson(await s.api("/api/v1/invitations", { method: "POST", json: { email: "x@example.test", teamId }, key: stranger.key }), 404)).error.code).toBe("not_found");
    // Bad input.
    expect((await expectJson(await s.api("/api/v1/invitations", { method: "POST", json: { email: "not-an-email", teamId }, key: ana.key }), 422)).error.field).toBe("email");
    expect((await expectJson(await s.api("/api/v1/invitations", { method: "POST", json: { email: "x@example.test" }, key: ana.key }), 422)).error.field).toBe("teamId");
    await expectJson(await s.api("/api/v1/invitations", { method: "POST", json: { email: "x@example.test", teamId, teamRole: "owner" }, key: ana.key }), 422);
  });

  test("invitation events are in the audit log under the team", async () => {
    const rows = await s.ctx.database.client.execute({ sql: "SELECT action FROM audit_events WHERE team_id = ? AND action LIKE 'invitation.%' ORDER BY id", args: [teamId] });
    const actions = rows.rows.map((r) => r.action);
    expect(actions).toContain("invitation.created");
    expect(actions).toContain("invitation.accepted");
    expect(actions).toContain("invitation.revoked");
  });
});

test("an SMTP server that is down: the invitation is made, the answer says the mail was not sent", async () => {
  const closed = new SMTPServer({ authOptional: true });
  await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", () => resolve()));
  const port = (closed.server.address() as { port: number }).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  const t = await startTestServer({ ...NO_SOURCES, BRAINBOX_SMTP_URL: `smtp://127.0.0.1:${port}` });
  try {
    const { team } = await expectJson(await t.api("/api/v1/teams", { method: "POST", json: { name: "T" } }), 201);
    const made = await expectJson(await t.api("/api/v1/invitations", { method: "POST", json: { email: "x@example.test", teamId: team.id } }), 201);
    expect(made).toMatchObject({ emailed: false, invitation: { status: "pending" } });
    expect(made.mailError).toContain("could not be sent");
    expect(made.url).toContain(made.token);
  } finally {
    await t.close();
  }
});

test("BRAINBOX_SMTP_URL must be an smtp(s) URL", async () => {
  const { loadConfig } = await import("../../src/config");
  expect(() => loadConfig({ BRAINBOX_SMTP_URL: "http://mail.example.test" })).toThrow(/smtp/);
});
