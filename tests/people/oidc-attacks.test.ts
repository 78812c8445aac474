// Single sign-on under attack, against the real provider: a forged state, a callback from another browser, a
// replayed code, a nonce that is not ours, and id_tokens a man in the middle rewrote (signed by another key,
// for another audience, from another issuer, expired). Each is refused with its reason in the audit log,
// and nobody is made or signed in.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectJson, type TestServer } from "../support/server";
import { CookieJar, newSigningKey, type OidcRig, type SigningKey } from "../support/oidc-rig";
import { countRows, followProvider, lastAudit, sessionCookieOf, signOn, startSsoPair } from "./oidc-support";

let s: TestServer;
let rig: OidcRig;
let rogue: SigningKey;
beforeAll(async () => {
  ({ s, rig } = await startSsoPair());
  rogue = await newSigningKey("key-1"); // the provider's key id, another key
  // One honest sign-in first: discovery and the provider's keys are cached, as on a running server.
  expect((await signOn(s, rig, { sub: "warm-up", email: "warm@example.org", email_verified: true })).res.status).toBe(303);
});
afterAll(async () => {
  await s?.close();
  await rig?.close();
});

let counts: { accounts: number; sessions: number };
const snapshot = async () => ({ accounts: await countRows(s, "accounts"), sessions: await countRows(s, "web_sessions") });

/** Refused: the status, a page naming what to do, no session cookie, nothing made, the reason audited. */
async function expectRefused(result: { res: Response; jar: CookieJar }, reason: string, status = 401) {
  expect(result.res.status).toBe(status);
  expect(result.res.headers.get("content-type")).toContain("text/html");
  const page = await result.res.text();
  expect(page).toContain("did not complete");
  expect(page).toContain(reason);
  expect(sessionCookieOf(result.jar)).toBeNull();
  expect(await snapshot()).toEqual(counts);
  const failed = await lastAudit(s, "session.sign_in_failed");
  expect(failed!.details).toMatchObject({ method: "oidc", provider: "oidc", reason });
}

const victim = { sub: "victim-1", email: "victim@example.org", email_verified: true, name: "Victim" };

describe("the flow's own checks", () => {
  test("a forged state is refused", async () => {
    counts = await snapshot();
    const result = await signOn(s, rig, victim, { editCallback: (u) => u.searchParams.set("state", "forged-state-value") });
    await expectRefused(result, "state_mismatch");
  });

  test("a callback in a browser that did not start the flow (login CSRF) is refused", async () => {
    // The attacker starts a flow in their own browser and hands the callback link to the victim's.
    const start = await fetch(`${s.url}/auth/oidc/start`, { redirect: "manual" });
    rig.users.set(victim.sub, victim);
    rig.nextUser = victim.sub;
    const callback = await followProvider(rig, start.headers.get("location")!, s.url);
    counts = await snapshot();
    const res = await fetch(callback, { redirect: "manual", headers: { accept: "text/html" } });
    await expectRefused({ res, jar: new CookieJar() }, "unknown_flow");
  });

  test("a replayed callback (the same code and cookie again) is refused", async () => {
    const first = await signOn(s, rig, victim);
    expect(first.res.status).toBe(303);
    counts = await snapshot();
    const jar = new CookieJar();
    const start = await fetch(`${s.url}/auth/oidc/start`, { redirect: "manual" });
    jar.take(start);
    const cookie = jar.header();
    const callback = await followProvider(rig, start.headers.get("location")!, s.url);
    const ok = await fetch(callback, { redirect: "manual", headers: { cookie, accept: "text/html" } });
    expect(ok.status).toBe(303);
    counts = await snapshot();
    const replay = await fetch(callback, { redirect: "manual", headers: { cookie, accept: "text/html" } });
    await expectRefused({ res: replay, jar: new CookieJar() }, "unknown_flow");
  });

  test("a used code carried into a fresh flow is refused by the provider", async () => {
    const used = await signOn(s, rig, victim);
    expect(used.res.status).toBe(303);
    const usedCode = new URL(used.callbackUrl!).searchParams.get("code")!;
    counts = await snapshot();
    const result = await signOn(s, rig, victim, { editCallback: (u) => u.searchParams.set("code", usedCode) });
    await expectRefused(result, "code_rejected");
  });

  test("a nonce that is not this flow's is refused", async () => {
    counts = await snapshot();
    const result = await signOn(s, rig, victim, { editAuthorization: (u) => u.searchParams.set("nonce", "someone-elses-nonce") });
    await expectRefused(result, "nonce_mismatch");
  });

  test("the person cancels at the provider (error=access_denied): a page saying so, nobody signed in", async () => {
    counts = await snapshot();
    const result = await signOn(s, rig, victim, {
      editCallback: (u) => {
        const state = u.searchParams.get("state")!;
        u.search = new URLSearchParams({ error: "access_denied", state, iss: rig.issuer }).toString();
      },
    });
    await expectRefused(result, "provider_refused");
  });

  test("an authorization answer naming another issuer (iss parameter) is refused", async () => {
    counts = await snapshot();
    const result = await signOn(s, rig, victim, { editCallback: (u) => u.searchParams.set("iss", "http://127.0.0.1:1") });
    await expectRefused(result, "iss_mismatch");
  });
});

describe("id_tokens rewritten in transit", () => {
  const tamper = async (edit: (c: Record<string, unknown>) => Record<string, unknown>, key?: () => SigningKey) => {
    rig.tamper = (claims) => ({ claims: edit(claims), key: key ? key() : rig.keys[0]! });
    try {
      return await signOn(s, rig, victim);
    } finally {
      rig.tamper = null;
    }
  };

  test("the provider's own token, re-signed unchanged, still signs in (the tampering rig itself is sound)", async () => {
    const result = await tamper((c) => c);
    expect(result.res.status).toBe(303);
  });

  test("signed by another key under the provider's key id: refused", async () => {
    counts = await snapshot();
    await expectRefused(await tamper((c) => ({ ...c, sub: "victim-1" }), () => rogue), "id_token_bad_signature");
  });

  test("signed by a key the provider never published: refused", async () => {
    counts = await snapshot();
    const stranger = await newSigningKey("not-a-provider-key");
    await expectRefused(await tamper((c) => c, () => stranger), "id_token_unknown_key");
  });

  test("for another audience: refused", async () => {
    counts = await snapshot();
    await expectRefused(await tamper((c) => ({ ...c, aud: "some-other-client" })), "aud_mismatch");
  });

  test("from another issuer: refused", async () => {
    counts = await snapshot();
    await expectRefused(await tamper((c) => ({ ...c, iss: "http://127.0.0.1:1" })), "iss_mismatch");
  });

  test("expired: refused", async () => {
    counts = await snapshot();
    const now = Math.floor(Date.now() / 1000);
    await expectRefused(await tamper((c) => ({ ...c, iat: now - 7200, exp: now - 3600 })), "id_token_expired");
  });

  test("with no signature at all (alg none): refused", async () => {
    counts = await snapshot();
    rig.tamperRaw = (claims) => `${b64({ alg: "none", typ: "JWT" })}.${b64(claims)}.`;
    try {
      const result = await signOn(s, rig, victim);
      expect(result.res.status).toBe(401);
      expect(sessionCookieOf(result.jar)).toBeNull();
      expect(await snapshot()).toEqual(counts);
      expect((await lastAudit(s, "session.sign_in_failed"))!.details).toMatchObject({ method: "oidc" });
    } finally {
      rig.tamperRaw = null;
    }
  });

  test("an API caller at the callback gets the JSON error", async () => {
    rig.tamper = (claims) => ({ claims: { ...claims, aud: "x" }, key: rig.keys[0]! });
    try {
      const { res } = await signOn(s, rig, victim, { accept: "application/json" });
      expect((await expectJson(res, 401)).error).toMatchObject({ code: "sso_failed", reason: "aud_mismatch" });
    } finally {
      rig.tamper = null;
    }
  });
});

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
