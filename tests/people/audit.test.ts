// The audit log over real HTTP: what is recorded (sign-ins, failures, sign outs, keys, tokens), who reads
// what (server admins all, others their own), filters, newest first with cursor paging, bad queries, and
// the retention pass.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { pruneAudit } from "../../src/modules/audit/service";
import { expectJson, NO_SOURCES, startTestServer, type TestServer } from "../support/server";
import { accessTokenFor, asPage, newPerson, signIn, signedIn } from "./support";

let s: TestServer;
let jo: { id: string; key: string };
beforeAll(async () => {
  s = await startTestServer({ ...NO_SOURCES, BRAINBOX_AUTH_FAILURES_PER_MINUTE: "1000" });
  jo = await newPerson(s.ctx.db, "jo@example.com", "jos password!!");
});
afterAll(() => s?.close());

const audit = async (query = "", key = s.key) => expectJson(await s.api(`/api/v1/audit${query}`, { key }), 200);

describe("what is recorded", () => {
  test("sign-in, failed sign-in (email, no password), sign out; key created and revoked; token granted and revoked", async () => {
    const cookie = await signedIn(s, "jo@example.com", "jos password!!");
    await signIn(s, "jo@example.com", "not the password 42");
    await asPage(s, "/api/v1/session", cookie, { method: "DELETE" });
    const key = await expectJson(await s.api("/api/user/api-keys", { method: "POST", json: { name: "ci" }, key: jo.key }), 201);
    expect((await s.api(`/api/user/api-keys/${key.id}`, { method: "DELETE", key: jo.key })).status).toBe(204);
    await accessTokenFor(s, jo.key);
    const { grants } = await expectJson(await s.api("/api/user/oauth-grants", { key: jo.key }), 200);
    expect((await s.api(`/api/user/oauth-grants/${grants[0].id}`, { method: "DELETE", key: jo.key })).status).toBe(204);

    const { events } = await audit("?limit=200");
    const mine = events.filter((e: any) => e.actor?.id === jo.id || e.target?.id === jo.id);
    const actions = new Set(mine.map((e: any) => e.action));
    for (const action of ["session.signed_in", "session.sign_in_failed", "session.signed_out", "key.created", "key.revoked", "token.granted", "token.revoked"]) expect(actions).toContain(action);
    const failed = mine.find((e: any) => e.action === "session.sign_in_failed");
    expect(failed.details).toEqual({ email: "jo@example.com", method: "password" });
    expect(JSON.stringify(events)).not.toContain("not the password 42");
    // Newest first.
    const ids = events.map((e: any) => Number(e.id));
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
  });
});

describe("who reads what", () => {
  test("a person sees only their own events (and failed sign-ins with their email); an admin sees everyone's", async () => {
    const kim = await newPerson(s.ctx.db, "kim@example.com", "kims password!");
    await signedIn(s, "kim@example.com", "kims password!");
    await signIn(s, "kim@example.com", "wrong wrong wrong");
    const own = await audit("", kim.key);
    expect(own.events.length).toBeGreaterThanOrEqual(2);
    for (const e of own.events) expect(e.actor?.id === kim.id || e.target?.id === kim.id).toBe(true);
    // Asking for another actor's events answers nothing of theirs.
    expect((await audit(`?actorId=${jo.id}`, kim.key)).events).toEqual([]);
    expect((await audit(`?actorId=${jo.id}`)).events.length).toBeGreaterThan(0);
    // A connector's token cannot read the log.
    expect((await s.api("/api/v1/audit", { key: await accessTokenFor(s, kim.key) })).status).toBe(403);
    expect((await s.api("/api/v1/audit", { key: null })).status).toBe(401);
  });
});

describe("filters and paging", () => {
  test("action, actorId, since/until; cursor pages cover everything once", async () => {
    const signIns = await audit(`?action=session.signed_in&actorId=${jo.id}`);
    expect(signIns.events.length).toBeGreaterThan(0);
    for (const e of signIns.events) expect(e).toMatchObject({ action: "session.signed_in", actor: { id: jo.id } });
    expect((await audit(`?since=${new Date(Date.now() + 60_000).toISOString()}`)).events).toEqual([]);
    expect((await audit(`?until=2000-01-01T00:00:00Z`)).events).toEqual([]);
    const all = (await audit("?limit=200")).events.map((e: any) => e.id);
    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const page: any = await audit(`?limit=2${cursor ? `&cursor=${cursor}` : ""}`);
      expect(page.events.length).toBeLessThanOrEqual(2);
      paged.push(...page.events.map((e: any) => e.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(paged).toEqual(all);
  });

  test("bad queries are 422 with the field", async () => {
    for (const [query, field] of [["?action=nope", "action"], ["?since=yesterday", "since"], ["?until=31/12/2026", "until"], ["?limit=0", "limit"], ["?limit=201", "limit"], ["?limit=abc", "limit"], ["?cursor=-4", "cursor"]]) {
      const res = await s.api(`/api/v1/audit${query}`);
      expect((await expectJson(res, 422)).error.field).toBe(field!);
    }
  });
});

describe("retention", () => {
  test("the pass deletes events older than BRAINBOX_AUDIT_RETENTION_DAYS and keeps the rest", async () => {
    const old = Date.now() - 40 * 86_400_000;
    await s.ctx.database.client.execute({ sql: "INSERT INTO audit_events (at, action, actor_label) VALUES (?, 'key.created', 'old'), (?, 'key.created', 'recent')", args: [old, Date.now() - 86_400_000] });
    const before = (await audit("?limit=200")).events.length;
    expect(await pruneAudit(s.ctx.db, 30)).toBe(1);
    const after = (await audit("?limit=200")).events;
    expect(after.length).toBe(before - 1);
    expect(after.some((e: any) => e.actor?.label === "recent")).toBe(true);
    expect(after.some((e: any) => e.actor?.label === "old")).toBe(false);
  });
});
