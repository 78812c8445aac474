// Sign-in with email and password over real HTTP: the cookie's attributes, only its hash stored, rotation at
// sign-in (fixation), idle and absolute expiry, sign out, sign out everywhere, and the cookie as an API
// credential beside bearer keys (which keep working, and win when both are sent).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { sha256Hex } from "../../src/lib/secrets";
import { expectJson, NO_SOURCES, startTestServer, type TestServer } from "../support/server";
import { asPage, cookieOf, newPerson, signIn, signedIn } from "./support";

let s: TestServer;
let ada: { id: string; key: string };
const PASSWORD = "correct horse battery";
beforeAll(async () => {
  s = await startTestServer({ ...NO_SOURCES, BRAINBOX_SESSION_IDLE_MINUTES: "30", BRAINBOX_SESSION_MAX_HOURS: "24" });
  ada = await newPerson(s.ctx.db, "Ada@Example.com", PASSWORD, "Ada");
});
afterAll(() => s?.close());

const secretOf = (cookie: string) => cookie.split("=")[1]!;
const sql = (q: string, args: (string | number)[] = []) => s.ctx.database.client.execute({ sql: q, args });

describe("POST /api/v1/session", () => {
  test("the right email (any case) and password: 201, an HttpOnly SameSite=Lax cookie, only its hash stored", async () => {
    const res = await signIn(s, "  ada@EXAMPLE.com ", PASSWORD);
    const body = await expectJson(res, 201);
    expect(body.person).toMatchObject({ id: ada.id, email: "ada@example.com", name: "Ada", hasPassword: true, deactivatedAt: null });
    expect(JSON.stringify(body)).not.toContain("argon2");
    expect(res.headers.get("cache-control")).toBe("no-store");
    const [pair, ...attributes] = res.headers.get("set-cookie")!.split("; ");
    expect(pair).toMatch(/^bb_session=bb_ws_[0-9A-Za-z]{43}$/);
    expect(attributes.sort()).toEqual(["HttpOnly", `Max-Age=${24 * 3600}`, "Path=/", "SameSite=Lax"]);
    const rows = await sql("SELECT * FROM web_sessions WHERE account_id = ?", [ada.id]);
    expect(JSON.stringify(rows.rows)).not.toContain(secretOf(pair!));
    expect(rows.rows.some((r) => r.hash === sha256Hex(secretOf(pair!)) && r.via === "password")).toBe(true);
  });

  test("the cookie is a credential: GET /api/v1/session names the person and the session; the API answers", async () => {
    const cookie = await signedIn(s, "ada@example.com", PASSWORD);
    const who = await expectJson(await asPage(s, "/api/v1/session", cookie), 200);
    expect(who).toMatchObject({ via: "session", person: { id: ada.id }, session: { method: "password" } });
    expect(Date.parse(who.session.idleExpiresAt)).toBeLessThanOrEqual(Date.parse(who.session.expiresAt));
    expect((await asPage(s, "/api/v1/brains", cookie)).status).toBe(200);
    expect((await expectJson(await asPage(s, "/api/v1/account", cookie), 200)).account.id).toBe(ada.id);
  });

  test("signing in rotates the cookie: a planted (or old) session is ended, never carried over", async () => {
    const planted = await signedIn(s, "ada@example.com", PASSWORD);
    const res = await signIn(s, "ada@example.com", PASSWORD, { cookie: planted });
    const fresh = cookieOf(res)!;
    expect(fresh).not.toBe(planted);
    expect((await asPage(s, "/api/v1/session", planted)).status).toBe(401);
    expect((await asPage(s, "/api/v1/session", fresh)).status).toBe(200);
  });

  test("idle expiry: a session unused for BRAINBOX_SESSION_IDLE_MINUTES ends", async () => {
    const cookie = await signedIn(s, "ada@example.com", PASSWORD);
    await sql("UPDATE web_sessions SET last_seen_at = ? WHERE hash = ?", [Date.now() - 31 * 60_000, sha256Hex(secretOf(cookie))]);
    expect((await expectJson(await asPage(s, "/api/v1/brains", cookie), 401)).error.code).toBe("unauthorized");
  });

  test("absolute expiry: however active, a session ends at its expiry", async () => {
    const cookie = await signedIn(s, "ada@example.com", PASSWORD);
    expect((await asPage(s, "/api/v1/brains", cookie)).status).toBe(200);
    await sql("UPDATE web_sessions SET expires_at = ?, last_seen_at = ? WHERE hash = ?", [Date.now() - 1, Date.now(), sha256Hex(secretOf(cookie))]);
    expect((await asPage(s, "/api/v1/brains", cookie)).status).toBe(401);
  });

  test("a forged, malformed or unknown cookie is no credential: 401 as without one", async () => {
    for (const cookie of ["bb_session=bb_ws_forged", `bb_session=bb_ws_${"a".repeat(43)}`, "bb_session=", "other=1"]) {
      const res = await asPage(s, "/api/v1/brains", cookie);
      expect((await expectJson(res, 401)).error.code).toBe("unauthorized");
    }
  });
});

describe("sign out", () => {
  test("DELETE /api/v1/session: 204, the cookie cleared, the session dead server-side; again is fine", async () => {
    const cookie = await signedIn(s, "ada@example.com", PASSWORD);
    const out = await asPage(s, "/api/v1/session", cookie, { method: "DELETE" });
    expect(out.status).toBe(204);
    expect(out.headers.get("set-cookie")).toBe("bb_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax");
    expect((await asPage(s, "/api/v1/brains", cookie)).status).toBe(401);
    expect((await asPage(s, "/api/v1/session", cookie, { method: "DELETE" })).status).toBe(204);
    const audit = await sql("SELECT action FROM audit_events WHERE actor_id = ? AND action = 'session.signed_out'", [ada.id]);
    expect(audit.rows.length).toBeGreaterThan(0);
  });

  test("sign out everywhere ends every session of the person (other browsers too), not their API keys", async () => {
    const here = await signedIn(s, "ada@example.com", PASSWORD);
    const phone = await signedIn(s, "ada@example.com", PASSWORD);
    const res = await asPage(s, "/api/v1/session/sign-out-everywhere", here, { method: "POST" });
    expect((await expectJson(res, 200)).signedOut).toBeGreaterThanOrEqual(2);
    expect(res.headers.get("set-cookie")).toStartWith("bb_session=; ");
    for (const cookie of [here, phone]) expect((await asPage(s, "/api/v1/brains", cookie)).status).toBe(401);
    expect((await s.api("/api/v1/brains", { key: ada.key })).status).toBe(200);
  });
});

describe("cross-site requests with the cookie", () => {
  test("a cross-site form POST with the cookie is refused (403 cross_site_request) and creates nothing", async () => {
    const cookie = await signedIn(s, "ada@example.com", PASSWORD);
    const before = await expectJson(await asPage(s, "/api/v1/brains", cookie), 200);
    const attempts: Record<string, string>[] = [
      { origin: "https://evil.example", "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": "cross-site" },
      { origin: "https://evil.example", "content-type": "application/x-www-form-urlencoded" },
      { origin: "null", "content-type": "application/x-www-form-urlencoded" },
      { origin: s.url, "sec-fetch-site": "same-site", "content-type": "application/json" },
    ];
    for (const headers of attempts) {
      const res = await fetch(`${s.url}/api/v1/brains`, { method: "POST", headers: { cookie, ...headers }, body: headers["content-type"]!.includes("json") ? '{"name":"Evil"}' : "name=Evil" });
      expect((await expectJson(res, 403)).error.code).toBe("cross_site_request");
    }
    // No Origin at all: not from this server's page either.
    const bare = await fetch(`${s.url}/api/v1/brains`, { method: "POST", headers: { cookie, "content-type": "application/json" }, body: '{"name":"Evil"}' });
    expect(bare.status).toBe(403);
    const after = await expectJson(await asPage(s, "/api/v1/brains", cookie), 200);
    expect(after.brains.length).toBe(before.brains.length);
  });

  test("the same POST from this server's own page works", async () => {
    const cookie = await signedIn(s, "ada@example.com", PASSWORD);
    const res = await asPage(s, "/api/v1/brains", cookie, { method: "POST", json: { name: "Same origin" }, headers: { "sec-fetch-site": "same-origin" } });
    expect((await expectJson(res, 201)).brain.name).toBe("Same origin");
  });

  test("a request with Authorization ignores the cookie: a bearer works cross-site, a bad bearer is 401 even with a live cookie", async () => {
    const cookie = await signedIn(s, "ada@example.com", PASSWORD);
    const withKey = await fetch(`${s.url}/api/v1/brains`, { method: "POST", headers: { cookie, origin: "https://evil.example", authorization: `Bearer ${s.key}`, "content-type": "application/json" }, body: '{"name":"By key"}' });
    expect((await expectJson(withKey, 201)).brain.name).toBe("By key");
    const bad = await fetch(`${s.url}/api/v1/brains`, { headers: { cookie, authorization: "Bearer bb_live_nope" } });
    expect(bad.status).toBe(401);
  });

  test("signing in from another site is refused (login CSRF); a client without Origin (curl) may sign in", async () => {
    const res = await signIn(s, "ada@example.com", PASSWORD, { origin: "https://evil.example" });
    expect((await expectJson(res, 403)).error.code).toBe("cross_site_request");
    expect(res.headers.get("set-cookie")).toBeNull();
    const curl = await fetch(`${s.url}/api/v1/session`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: "ada@example.com", password: PASSWORD }) });
    expect(curl.status).toBe(201);
  });

  test("GET requests need no Origin (a citation link opened from a chat is a top-level GET)", async () => {
    const cookie = await signedIn(s, "ada@example.com", PASSWORD);
    const res = await fetch(`${s.url}/api/v1/brains`, { headers: { cookie, "sec-fetch-site": "cross-site" } });
    expect(res.status).toBe(200);
  });
});

describe("over https", () => {
  test("the __Host- prefix and Secure; behind an https proxy (X-Forwarded-Proto) Secure too", async () => {
    const secure = await startTestServer({ ...NO_SOURCES, BRAINBOX_PUBLIC_URL: "https://brainbox.example" });
    try {
      await newPerson(secure.ctx.db, "grace@example.com", PASSWORD);
      const res = await fetch(`${secure.url}/api/v1/session`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: "grace@example.com", password: PASSWORD }) });
      expect(res.status).toBe(201);
      expect(res.headers.get("set-cookie")).toMatch(/^__Host-bb_session=bb_ws_\w{43}; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax; Secure$/);
    } finally {
      await secure.close();
    }
    const proxied = await signIn(s, "ada@example.com", PASSWORD, { "x-forwarded-proto": "https" });
    expect(proxied.headers.get("set-cookie")).toEndWith("; Secure");
  });
});
