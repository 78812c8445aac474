// Setup and reset links over real HTTP: the first start's setup link (the owner sets email and password,
// and is signed in), reset links made by a server admin, each single use and expiring; bad tokens refused.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sha256Hex } from "../../src/lib/secrets";
import { expectJson, NO_SOURCES, startTestServer, type TestServer } from "../support/server";
import { asPage, cookieOf, newPerson, signIn } from "./support";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer(NO_SOURCES);
});
afterAll(() => s?.close());

const tokenOf = (url: string) => new URL(url).searchParams.get("token")!;
const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${s.url}${path}`, { method: "POST", headers: { "content-type": "application/json", origin: s.url, ...headers }, body: JSON.stringify(body) });

describe("the first start's setup link", () => {
  test("is printed once as <publicUrl>/setup?token=…, opens the admin page, and sets the owner's email and password once", async () => {
    expect(s.setupUrl).toStartWith(`${s.url}/setup?token=bb_pl_`);
    const page = await fetch(s.setupUrl!);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<script type="module" src="/assets/app.js">');
    const token = tokenOf(s.setupUrl!);
    const checked = await expectJson(await post("/api/v1/password-links/check", { token }), 200);
    expect(checked).toMatchObject({ purpose: "setup", person: { name: "Owner", email: null } });
    // Setup needs an email, and a password long enough.
    expect((await expectJson(await post("/api/v1/password-links/redeem", { token, password: "long enough password" }), 422)).error.field).toBe("email");
    expect((await expectJson(await post("/api/v1/password-links/redeem", { token, password: "short", email: "owner@example.com" }), 422)).error.field).toBe("password");
    const done = await post("/api/v1/password-links/redeem", { token, password: "long enough password", email: "Owner@Example.com" });
    const body = await expectJson(done, 201);
    expect(body.person).toMatchObject({ email: "owner@example.com", isAdmin: true, hasPassword: true });
    const cookie = cookieOf(done)!;
    expect((await asPage(s, "/api/v1/session", cookie)).status).toBe(200);
    // Used: the same link again is refused, and the password works.
    expect((await expectJson(await post("/api/v1/password-links/redeem", { token, password: "another password!", email: "x@example.com" }), 400)).error.code).toBe("invalid_link");
    expect((await expectJson(await post("/api/v1/password-links/check", { token }), 400)).error.code).toBe("invalid_link");
    expect((await signIn(s, "owner@example.com", "long enough password")).status).toBe(201);
    const audit = await s.ctx.database.client.execute("SELECT details FROM audit_events WHERE action = 'password.set'");
    expect(String(audit.rows[0]!.details)).toContain("setup");
  });
});

describe("reset links", () => {
  test("a server admin makes one; the person sets a new password once; their other sessions end; the old password stops", async () => {
    const bob = await newPerson(s.ctx.db, "bob@example.com", "bobs old password");
    const oldSession = cookieOf(await signIn(s, "bob@example.com", "bobs old password"))!;
    const made = await expectJson(await s.api(`/api/v1/people/${bob.id}/reset-link`, { method: "POST" }), 201);
    expect(made.url).toStartWith(`${s.url}/setup?token=bb_pl_`);
    expect(Date.parse(made.expiresAt)).toBeGreaterThan(Date.now());
    const token = tokenOf(made.url);
    expect((await expectJson(await post("/api/v1/password-links/check", { token }), 200)).purpose).toBe("reset");
    const used = await post("/api/v1/password-links/redeem", { token, password: "bobs new password" });
    expect(used.status).toBe(201);
    expect((await asPage(s, "/api/v1/brains", oldSession)).status).toBe(401);
    expect((await signIn(s, "bob@example.com", "bobs old password")).status).toBe(401);
    expect((await signIn(s, "bob@example.com", "bobs new password")).status).toBe(201);
    // Reused: refused, nothing changed.
    expect((await post("/api/v1/password-links/redeem", { token, password: "an attacker's pick" })).status).toBe(400);
    expect((await signIn(s, "bob@example.com", "bobs new password")).status).toBe(201);
  });

  test("an expired link is refused; a newer link replaces an older one", async () => {
    const cy = await newPerson(s.ctx.db, "cy@example.com", "cys first password");
    const first = tokenOf((await expectJson(await s.api(`/api/v1/people/${cy.id}/reset-link`, { method: "POST" }), 201)).url);
    const second = tokenOf((await expectJson(await s.api(`/api/v1/people/${cy.id}/reset-link`, { method: "POST" }), 201)).url);
    expect((await post("/api/v1/password-links/redeem", { token: first, password: "replaced link pw" })).status).toBe(400);
    await s.ctx.database.client.execute({ sql: "UPDATE password_links SET expires_at = ? WHERE hash = ?", args: [Date.now() - 1, sha256Hex(second)] });
    const expired = await expectJson(await post("/api/v1/password-links/redeem", { token: second, password: "expired link pw" }), 400);
    expect(expired.error).toMatchObject({ code: "invalid_link", field: "token" });
    expect((await signIn(s, "cy@example.com", "cys first password")).status).toBe(201);
  });

  test("only a server admin makes reset links; unknown people are 404", async () => {
    const dee = await newPerson(s.ctx.db, "dee@example.com", "dees password!");
    expect((await expectJson(await s.api(`/api/v1/people/${dee.id}/reset-link`, { method: "POST", key: dee.key }), 403)).error.code).toBe("forbidden");
    expect((await s.api(`/api/v1/people/acc_nobody/reset-link`, { method: "POST" })).status).toBe(404);
    expect((await s.api(`/api/v1/people/${dee.id}/reset-link`, { method: "POST", key: null })).status).toBe(401);
  });

  test("bad tokens: malformed, unknown, missing; a cross-site redeem is refused", async () => {
    for (const token of ["", "bb_pl_short", `bb_pl_${"x".repeat(43)}`, "../../etc/passwd"]) {
      expect((await expectJson(await post("/api/v1/password-links/check", { token }), 400)).error.code).toBe("invalid_link");
    }
    expect((await post("/api/v1/password-links/redeem", {})).status).toBe(422);
    const eve = await newPerson(s.ctx.db, "eve@example.com", "eves password!");
    const token = tokenOf((await expectJson(await s.api(`/api/v1/people/${eve.id}/reset-link`, { method: "POST" }), 201)).url);
    const cross = await post("/api/v1/password-links/redeem", { token, password: "cross site pw" }, { origin: "https://evil.example" });
    expect((await expectJson(cross, 403)).error.code).toBe("cross_site_request");
    expect((await post("/api/v1/password-links/check", { token })).status).toBe(200); // still unused
  });
});
