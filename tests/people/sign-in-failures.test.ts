// Wrong sign-ins over real HTTP: one generic 401 for every wrong pair, an audit event naming the email
// (never the password), bad bodies refused clearly, and throttling per (email, address) that never keeps
// the right password out from another address (client addresses through a trusted proxy's X-Forwarded-For).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createAccount } from "../../src/modules/accounts/service";
import { expectJson, NO_SOURCES, startTestServer, type TestServer } from "../support/server";
import { newPerson, signIn } from "./support";

let s: TestServer;
const PASSWORD = "correct horse battery";
beforeAll(async () => {
  s = await startTestServer({ ...NO_SOURCES, BRAINBOX_SIGN_IN_FREE_FAILURES: "2", BRAINBOX_TRUSTED_PROXIES: "127.0.0.1, ::1" });
  await newPerson(s.ctx.db, "ada@example.com", PASSWORD);
  await newPerson(s.ctx.db, "owner@example.com", PASSWORD);
  const noPassword = await createAccount(s.ctx.db, { name: "No password", planId: "free" });
  await s.ctx.database.client.execute({ sql: "UPDATE accounts SET email = 'nopass@example.com' WHERE id = ?", args: [noPassword.id] });
});
afterAll(() => s?.close());

const from = (address: string) => ({ "x-forwarded-for": address });

describe("wrong credentials", () => {
  test("wrong password, unknown email, a person without a password: the same 401 invalid_credentials, no cookie", async () => {
    const answers = [];
    for (const [email, password, address] of [
      ["ada@example.com", "wrong password!", "192.0.2.1"],
      ["nobody@example.com", PASSWORD, "192.0.2.2"],
      ["nopass@example.com", PASSWORD, "192.0.2.3"],
    ] as const) {
      const res = await signIn(s, email, password, from(address));
      expect(res.headers.get("set-cookie")).toBeNull();
      answers.push(await expectJson(res, 401));
    }
    expect(answers[0].error.code).toBe("invalid_credentials");
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
  });

  test("a failed sign-in is audited with the email, never the password", async () => {
    await signIn(s, "ada@example.com", "a secret guess 123", from("192.0.2.4"));
    const rows = await s.ctx.database.client.execute("SELECT * FROM audit_events WHERE action = 'session.sign_in_failed'");
    const text = JSON.stringify(rows.rows);
    expect(text).toContain("ada@example.com");
    expect(text).toContain("192.0.2.4");
    expect(text).not.toContain("a secret guess 123");
  });

  test("bad bodies: 422 with the field, or 400 for broken JSON; never a session", async () => {
    for (const body of [{}, { email: "ada@example.com" }, { password: PASSWORD }, { email: "", password: "x" }, { email: "ada@example.com", password: "x".repeat(2000) }, { email: 1, password: [] }]) {
      const res = await fetch(`${s.url}/api/v1/session`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
      expect(res.status).toBe(422);
      expect(res.headers.get("set-cookie")).toBeNull();
    }
    const broken = await fetch(`${s.url}/api/v1/session`, { method: "POST", headers: { "content-type": "application/json" }, body: "{" });
    expect(broken.status).toBe(400);
  });
});

describe("throttling", () => {
  test("an attacker's address is slowed (429 too_many_attempts, Retry-After); the owner signs in from another address", async () => {
    const attacker = from("203.0.113.9");
    let limited: Response | undefined;
    for (let i = 0; i < 10 && !limited; i++) {
      const res = await signIn(s, "owner@example.com", `guess number ${i}`, attacker);
      if (res.status === 429) limited = res;
      else expect(res.status).toBe(401);
    }
    expect(limited).toBeDefined();
    const body = await expectJson(limited!, 429);
    expect(body.error.code).toBe("too_many_attempts");
    expect(Number(limited!.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    // From the attacker's address even the right password waits (nothing is checked while it waits) …
    const waiting = await signIn(s, "owner@example.com", PASSWORD, attacker);
    expect(waiting.status).toBe(429);
    expect(waiting.headers.get("set-cookie")).toBeNull();
    // … while the owner, elsewhere, is never slowed.
    const owner = await signIn(s, "owner@example.com", PASSWORD, from("198.51.100.7"));
    expect(owner.status).toBe(201);
    expect(owner.headers.get("set-cookie")).toStartWith("bb_session=bb_ws_");
  });
});
