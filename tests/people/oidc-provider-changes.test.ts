// Single sign-on when the provider misbehaves or changes: down at first use (a clear page, then it works
// once the provider is back: a failed discovery is not kept), down or hung between the start and the
// callback (a clear page, nothing made), and its signing key rotated (the new key id still verifies). Also
// the domain rule (verified emails of the allowed domains only) and the configuration's own checks.
import { afterAll, beforeAll, describe, expect, setSystemTime, test } from "bun:test";
import { loadConfig } from "../../src/config";
import { forgetDiscoveries } from "../../src/modules/sso/discovery";
import { expectJson, NO_SOURCES, startTestServer, type TestServer } from "../support/server";
import { newSigningKey, startOidcRig, type OidcRig } from "../support/oidc-rig";
import { countRows, followProvider, lastAudit, sessionCookieOf, signOn } from "./oidc-support";
import { asPage } from "./support";

let s: TestServer;
let domains: TestServer;
let rig: OidcRig;
beforeAll(async () => {
  rig = await startOidcRig();
  const env = { BRAINBOX_OIDC_ISSUER: rig.issuer, BRAINBOX_OIDC_CLIENT_ID: rig.clientId, BRAINBOX_OIDC_CLIENT_SECRET: rig.clientSecret, BRAINBOX_OIDC_TIMEOUT_MS: "1500" };
  s = await startTestServer({ ...NO_SOURCES, ...env });
  domains = await startTestServer({ ...NO_SOURCES, ...env, BRAINBOX_OIDC_ALLOWED_DOMAINS: "example.org, @Corp.Example" });
  await rig.register(`${s.url}/auth/oidc/callback`, `${domains.url}/auth/oidc/callback`);
});
afterAll(async () => {
  setSystemTime();
  await s?.close();
  await domains?.close();
  await rig?.close();
});

const snapshot = async (server = s) => ({ accounts: await countRows(server, "accounts"), sessions: await countRows(server, "web_sessions"), identities: await countRows(server, "sso_identities") });
const ann = { sub: "ann-1", email: "ann@example.org", email_verified: true, name: "Ann" };

describe("the provider down or slow", () => {
  test("down at the first sign-in: a clear page (503), JSON for an API caller, nothing stored; works once it is back", async () => {
    forgetDiscoveries();
    rig.down();
    try {
      const before = await snapshot();
      const page = await fetch(`${s.url}/auth/oidc/start`, { redirect: "manual", headers: { accept: "text/html" } });
      expect(page.status).toBe(503);
      expect(page.headers.get("content-type")).toContain("text/html");
      expect(await page.text()).toContain("The sign-in provider did not answer, so nothing was changed here");
      const api = await fetch(`${s.url}/auth/oidc/start`, { redirect: "manual", headers: { accept: "application/json" } });
      expect((await expectJson(api, 503)).error).toMatchObject({ code: "upstream_unavailable", reason: "provider_unreachable" });
      expect(await countRows(s, "sso_flows")).toBe(0);
      expect(await snapshot()).toEqual(before);
    } finally {
      rig.up();
    }
    const { res, jar } = await signOn(s, rig, ann);
    expect(res.status).toBe(303);
    expect((await expectJson(await asPage(s, "/api/v1/session", sessionCookieOf(jar)!), 200)).person.email).toBe("ann@example.org");
  });

  test("down between the start and the callback: a clear page, no person, no session", async () => {
    const start = await fetch(`${s.url}/auth/oidc/start`, { redirect: "manual" });
    const flowCookie = start.headers.get("set-cookie")!.split(";")[0]!;
    rig.users.set("new-1", { sub: "new-1", email: "new@example.org", email_verified: true });
    rig.nextUser = "new-1";
    const callback = await followProvider(rig, start.headers.get("location")!, s.url);
    const before = await snapshot();
    rig.down();
    try {
      const res = await fetch(callback, { redirect: "manual", headers: { cookie: flowCookie, accept: "text/html" } });
      expect(res.status).toBe(503);
      expect(await res.text()).toContain("did not answer");
      expect(res.headers.getSetCookie().some((c) => c.startsWith("bb_session=bb_ws_"))).toBe(false);
    } finally {
      rig.up();
    }
    expect(await snapshot()).toEqual(before);
    expect((await lastAudit(s, "session.sign_in_failed"))!.details).toMatchObject({ method: "oidc", reason: "provider_unreachable" });
  });

  test("hung at the token exchange: the deadline ends the wait with the same page, nothing made", async () => {
    const start = await fetch(`${s.url}/auth/oidc/start`, { redirect: "manual" });
    const flowCookie = start.headers.get("set-cookie")!.split(";")[0]!;
    rig.nextUser = "new-1";
    const callback = await followProvider(rig, start.headers.get("location")!, s.url);
    const before = await snapshot();
    rig.mode = "hang";
    try {
      const res = await fetch(callback, { redirect: "manual", headers: { cookie: flowCookie, accept: "application/json" } });
      expect((await expectJson(res, 503)).error).toMatchObject({ code: "upstream_unavailable", reason: "provider_unreachable" });
    } finally {
      rig.mode = "up";
    }
    expect(await snapshot()).toEqual(before);
  });
});

describe("key rotation at the provider", () => {
  test("a new signing key (new kid) verifies once the cached key set is a minute old; the old key's tokens are gone", async () => {
    expect((await signOn(s, rig, ann)).res.status).toBe(303); // the key set is cached with key-1
    const old = rig.keys[0]!;
    await rig.rotate([await newSigningKey("key-2"), old]);
    // The library refetches the key set for an unknown key id only when its copy is at least a minute old
    // (so forged key ids cannot make it hammer the provider); move the clock past that.
    setSystemTime(new Date(Date.now() + 61_000));
    try {
      const { res, jar } = await signOn(s, rig, ann);
      expect(res.status).toBe(303);
      expect((await expectJson(await asPage(s, "/api/v1/session", sessionCookieOf(jar)!), 200)).person.email).toBe("ann@example.org");
      await rig.rotate([rig.keys[0]!]); // key-1 retired entirely
      const again = await signOn(s, rig, ann);
      expect(again.res.status).toBe(303);
    } finally {
      setSystemTime();
    }
  });
});

describe("the domain rule", () => {
  test("an unverified email is refused, even at an allowed domain; nothing is made", async () => {
    const before = await snapshot(domains);
    const { res, jar } = await signOn(domains, rig, { sub: "unv-1", email: "unv@example.org", email_verified: false });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("has not verified this email");
    expect(sessionCookieOf(jar)).toBeNull();
    expect(await snapshot(domains)).toEqual(before);
    expect((await lastAudit(domains, "session.sign_in_failed"))!.details).toMatchObject({ method: "oidc", reason: "email_not_verified", email: "unv@example.org" });
  });

  test("an email that does not say whether it is verified is refused too", async () => {
    const { res } = await signOn(domains, rig, { sub: "unk-1", email: "unk@example.org" });
    expect(res.status).toBe(403);
  });

  test("a verified email outside the allowed domains is refused", async () => {
    const before = await snapshot(domains);
    const { res } = await signOn(domains, rig, { sub: "out-1", email: "out@elsewhere.example", email_verified: true }, { accept: "application/json" });
    expect((await expectJson(res, 403)).error).toMatchObject({ code: "sso_refused", reason: "email_domain_not_allowed" });
    expect(await snapshot(domains)).toEqual(before);
  });

  test("a verified email of an allowed domain (any case, either domain) signs in", async () => {
    for (const [sub, email] of [["in-1", "in@example.org"], ["in-2", "Two@CORP.example"]] as const) {
      const { res, jar } = await signOn(domains, rig, { sub, email, email_verified: true });
      expect(res.status).toBe(303);
      expect((await expectJson(await asPage(domains, "/api/v1/session", sessionCookieOf(jar)!), 200)).person.email).toBe(email.toLowerCase());
    }
  });
});

describe("configuration", () => {
  const base = { BRAINBOX_DATA_DIR: "/tmp/unused" };
  test("an issuer needs a client id and https (http only on loopback); scopes need openid", () => {
    expect(() => loadConfig({ ...base, BRAINBOX_OIDC_ISSUER: "https://id.example" })).toThrow("BRAINBOX_OIDC_ISSUER needs BRAINBOX_OIDC_CLIENT_ID");
    expect(() => loadConfig({ ...base, BRAINBOX_OIDC_ISSUER: "http://id.example", BRAINBOX_OIDC_CLIENT_ID: "x" })).toThrow("must be https");
    expect(() => loadConfig({ ...base, BRAINBOX_OIDC_ISSUER: "https://id.example", BRAINBOX_OIDC_CLIENT_ID: "x", BRAINBOX_OIDC_SCOPES: "email" })).toThrow("must include openid");
    expect(() => loadConfig({ ...base, BRAINBOX_OIDC_CLIENT_ID: "x" })).toThrow("needs BRAINBOX_OIDC_ISSUER");
    const ok = loadConfig({ ...base, BRAINBOX_OIDC_ISSUER: "https://id.example/tenant/", BRAINBOX_OIDC_CLIENT_ID: "x" });
    expect(ok.oidcIssuer).toBe("https://id.example/tenant/"); // compared exactly: the trailing slash stays
    expect(ok.oidcScopes).toBe("openid email profile");
  });

  test("starts are counted per address: past BRAINBOX_OIDC_STARTS_PER_MINUTE, 429 with Retry-After and no flow row", async () => {
    const limited = await startTestServer({ ...NO_SOURCES, BRAINBOX_OIDC_ISSUER: rig.issuer, BRAINBOX_OIDC_CLIENT_ID: rig.clientId, BRAINBOX_OIDC_STARTS_PER_MINUTE: "3" });
    try {
      for (let i = 0; i < 3; i++) expect((await fetch(`${limited.url}/auth/oidc/start`, { redirect: "manual" })).status).toBe(303);
      const res = await fetch(`${limited.url}/auth/oidc/start`, { redirect: "manual", headers: { accept: "application/json" } });
      expect((await expectJson(res, 429)).error).toMatchObject({ code: "rate_limited", reason: "too_many_starts" });
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(await countRows(limited, "sso_flows")).toBe(3);
    } finally {
      await limited.close();
    }
  });

  test("with no provider configured the list is empty and the routes answer 404", async () => {
    const plain = await startTestServer(NO_SOURCES);
    try {
      expect(await expectJson(await fetch(`${plain.url}/api/v1/session/providers`), 200)).toEqual({ password: true, providers: [] });
      const res = await fetch(`${plain.url}/auth/oidc/start`, { redirect: "manual", headers: { accept: "application/json" } });
      expect((await expectJson(res, 404)).error.code).toBe("not_found");
    } finally {
      await plain.close();
    }
  });
});
