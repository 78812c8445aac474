// A server admin deactivates a person: their session, API key and OAuth access token each answer 401 at
// once (the next request); reactivation lets them sign in again, old credentials staying revoked.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectJson, NO_SOURCES, startTestServer, type TestServer } from "../support/server";
import { accessTokenFor, asPage, newPerson, signIn, signedIn } from "./support";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ ...NO_SOURCES, BRAINBOX_AUTH_FAILURES_PER_MINUTE: "1000" });
});
afterAll(() => s?.close());

describe("GET /api/v1/people", () => {
  test("server admins see everyone (never a password hash); others are refused", async () => {
    const fay = await newPerson(s.ctx.db, "fay@example.com", "fays password!");
    const { people } = await expectJson(await s.api("/api/v1/people"), 200);
    expect(people.map((p: { email: string | null }) => p.email)).toContain("fay@example.com");
    expect(JSON.stringify(people)).not.toContain("argon2");
    expect((await s.api("/api/v1/people", { key: fay.key })).status).toBe(403);
    expect((await s.api("/api/v1/people", { key: await accessTokenFor(s, s.key) })).status).toBe(403);
  });
});

describe("deactivation", () => {
  test("the person's session, key and access token are each 401 right after; they cannot sign in", async () => {
    const gus = await newPerson(s.ctx.db, "gus@example.com", "gus password!");
    const cookie = await signedIn(s, "gus@example.com", "gus password!");
    const token = await accessTokenFor(s, gus.key);
    // All three work, and are cached as working.
    for (let i = 0; i < 2; i++) {
      expect((await asPage(s, "/api/v1/brains", cookie)).status).toBe(200);
      expect((await s.api("/api/v1/brains", { key: gus.key })).status).toBe(200);
      expect((await s.api("/api/v1/brains", { key: token })).status).toBe(200);
    }
    const res = await expectJson(await s.api(`/api/v1/people/${gus.id}/deactivate`, { method: "POST" }), 200);
    expect(res.person.deactivatedAt).toBeString();
    expect(res.ended).toEqual({ sessions: 1, keys: 1, grants: 1 });
    expect((await asPage(s, "/api/v1/brains", cookie)).status).toBe(401);
    expect((await s.api("/api/v1/brains", { key: gus.key })).status).toBe(401);
    expect((await s.api("/api/v1/brains", { key: token })).status).toBe(401);
    expect((await signIn(s, "gus@example.com", "gus password!")).status).toBe(401);
    // Deactivating twice is fine; the audit log has it.
    expect((await s.api(`/api/v1/people/${gus.id}/deactivate`, { method: "POST" })).status).toBe(200);
    const events = await expectJson(await s.api(`/api/v1/audit?action=person.deactivated`), 200);
    expect(events.events[0].target).toEqual({ kind: "account", id: gus.id });

    // Reactivated: a password sign-in works again; the old key and token stay revoked.
    expect((await expectJson(await s.api(`/api/v1/people/${gus.id}/reactivate`, { method: "POST" }), 200)).person.deactivatedAt).toBeNull();
    expect((await signIn(s, "gus@example.com", "gus password!")).status).toBe(201);
    expect((await s.api("/api/v1/brains", { key: gus.key })).status).toBe(401);
    expect((await s.api("/api/v1/brains", { key: token })).status).toBe(401);
  });

  test("a key minted after deactivation does not work either", async () => {
    const hal = await newPerson(s.ctx.db, "hal@example.com", "hals password!");
    await expectJson(await s.api(`/api/v1/people/${hal.id}/deactivate`, { method: "POST" }), 200);
    const { createApiKey } = await import("../../src/modules/auth/keys");
    const late = await createApiKey(s.ctx.db, hal.id, "late");
    expect((await s.api("/api/v1/brains", { key: late.key })).status).toBe(401);
  });

  test("admins only; yourself is a 409; unknown is 404", async () => {
    const ivy = await newPerson(s.ctx.db, "ivy@example.com", "ivys password!");
    expect((await s.api(`/api/v1/people/${ivy.id}/deactivate`, { method: "POST", key: ivy.key })).status).toBe(403);
    const owner = (await expectJson(await s.api("/api/v1/account"), 200)).account.id;
    expect((await expectJson(await s.api(`/api/v1/people/${owner}/deactivate`, { method: "POST" }), 409)).error.code).toBe("conflict");
    expect((await s.api(`/api/v1/people/acc_nope/deactivate`, { method: "POST" })).status).toBe(404);
    expect((await s.api(`/api/v1/people/acc_nope/reactivate`, { method: "POST" })).status).toBe(404);
  });
});
