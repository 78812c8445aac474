// The failed-authentication limiter (issue 16 item 8): counted per client address AND per presented
// credential, never blocking a valid credential; client addresses taken from X-Forwarded-For / Forwarded
// only when the TCP peer is a trusted proxy (BRAINBOX_TRUSTED_PROXIES). All traffic is loopback: the
// "client addresses" below are literal header values, never connected to.
import { afterAll, describe, expect, test } from "bun:test";
import { ConfigError, loadConfig } from "../../src/config";
import { failureLimiter } from "../../src/http/auth-limiter";
import { clientAddress, inCidrs, parseCidrList } from "../../src/http/client-address";
import { expectJson, startTestServer, type TestServer } from "../support/server";

const servers: TestServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
});
async function server(env: Record<string, string>) {
  const s = await startTestServer({ BRAINBOX_JOBS: "false", ...env });
  servers.push(s);
  return s;
}
const badKey = (i: number | string) => `bb_live_bad${String(i).padStart(40, "0")}`;
const from = (address: string) => ({ "x-forwarded-for": address });

describe("failed-auth limiter", () => {
  test("30 bad tokens from one address: the next bad one is 429, a valid key from there still works (default limit)", async () => {
    const s = await server({});
    for (let i = 0; i < 30; i++) expect((await s.api("/api/v1/brains", { key: badKey(i) })).status).toBe(401);
    const limited = await s.api("/api/v1/brains", { key: badKey("next") });
    expect(limited.status).toBe(429);
    expect((await limited.json()).error.code).toBe("rate_limited");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(Number(limited.headers.get("retry-after"))).toBeLessThanOrEqual(60);
    // The owner's valid key, same address, same minute.
    for (let i = 0; i < 3; i++) expect((await s.api("/api/v1/brains")).status).toBe(200);
    // Missing credentials are not failures to count, and keyless routes are never limited.
    expect((await s.api("/api/health", { key: null })).status).toBe(200);
    expect((await s.api("/api/v1/brains", { key: null })).status).toBe(401);
  });

  test("without trusted proxies, X-Forwarded-For is ignored: rotating it does not escape the address limit", async () => {
    const s = await server({ BRAINBOX_AUTH_FAILURES_PER_MINUTE: "5" });
    for (let i = 0; i < 5; i++) expect((await s.api("/api/v1/brains", { key: badKey(i), headers: from(`203.0.113.${i}`) })).status).toBe(401);
    expect((await s.api("/api/v1/brains", { key: badKey(99), headers: from("198.51.100.77") })).status).toBe(429);
    expect((await s.api("/api/v1/brains", { headers: from("198.51.100.77") })).status).toBe(200);
  });

  test("behind a trusted proxy each client has its own budget; one client cannot lock out another", async () => {
    const s = await server({ BRAINBOX_AUTH_FAILURES_PER_MINUTE: "5", BRAINBOX_TRUSTED_PROXIES: "127.0.0.1/32, ::1" });
    for (let i = 0; i < 5; i++) expect((await s.api("/api/v1/brains", { key: badKey(i), headers: from("203.0.113.7") })).status).toBe(401);
    expect((await s.api("/api/v1/brains", { key: badKey("a"), headers: from("203.0.113.7") })).status).toBe(429);
    // Another client behind the same proxy: its bad token is an honest 401, its good key works.
    expect((await s.api("/api/v1/brains", { key: badKey("b"), headers: from("198.51.100.9") })).status).toBe(401);
    expect((await s.api("/api/v1/brains", { headers: from("198.51.100.9") })).status).toBe(200);
    // The blocked client's own valid key is never refused either.
    expect((await s.api("/api/v1/brains", { headers: from("203.0.113.7") })).status).toBe(200);
    // RFC 7239 Forwarded names the client too (an IPv6 client with a port).
    const forwarded = { forwarded: 'for="[2001:db8::1]:4711";proto=https' };
    for (let i = 0; i < 5; i++) expect((await s.api("/api/v1/brains", { key: badKey(`f${i}`), headers: forwarded })).status).toBe(401);
    expect((await s.api("/api/v1/brains", { key: badKey("f"), headers: forwarded })).status).toBe(429);
    expect((await s.api("/api/v1/brains", { key: badKey("g"), headers: { forwarded: "for=192.0.2.60" } })).status).toBe(401);
    // A client cannot pick its address by prepending hops: the proxy's appended (right-most) hop counts.
    expect((await s.api("/api/v1/brains", { key: badKey("c"), headers: from("192.0.2.1, 203.0.113.7") })).status).toBe(429);
  });

  test("the same bad credential is limited from any address (per-credential count)", async () => {
    const s = await server({ BRAINBOX_AUTH_FAILURES_PER_MINUTE: "5", BRAINBOX_TRUSTED_PROXIES: "127.0.0.0/8" });
    const stolen = badKey("revoked-somewhere");
    for (let i = 0; i < 5; i++) expect((await s.api("/api/v1/brains", { key: stolen, headers: from(`203.0.113.${10 + i}`) })).status).toBe(401);
    expect((await s.api("/api/v1/brains", { key: stolen, headers: from("198.51.100.200") })).status).toBe(429);
    // A different credential from that fresh address is judged on its own.
    expect((await s.api("/api/v1/brains", { key: badKey("other"), headers: from("198.51.100.200") })).status).toBe(401);
  });

  test("a revoked key keeps failing (401, then 429), while the account's other key works", async () => {
    const s = await server({ BRAINBOX_AUTH_FAILURES_PER_MINUTE: "3" });
    const made = await expectJson(await s.api("/api/user/api-keys", { method: "POST", json: { name: "soon revoked" } }), 201);
    expect((await s.api(`/api/user/api-keys/${made.id}`, { method: "DELETE" })).status).toBe(204);
    for (let i = 0; i < 3; i++) expect((await s.api("/api/v1/brains", { key: made.key })).status).toBe(401);
    expect((await s.api("/api/v1/brains", { key: made.key })).status).toBe(429);
    expect((await s.api("/api/v1/brains")).status).toBe(200);
  });

  test("sliding window: a failure stops counting 60 s after it happened", () => {
    const limiter = failureLimiter(3);
    const t0 = 1_000_000;
    for (let i = 0; i < 3; i++) limiter.record("a", t0 + i * 1000);
    expect(limiter.blockedFor("a", t0 + 2500)).toBe(58);
    expect(limiter.blockedFor("a", t0 + 59_999)).toBe(1);
    expect(limiter.blockedFor("a", t0 + 60_000)).toBe(0); // the first aged out: 2 of 3 left
    expect(limiter.blockedFor("never-seen", t0)).toBe(0);
    // "idle" (no failure in the last minute, by the clock) lets the edge skip lookups entirely.
    const fresh = failureLimiter(3);
    expect(fresh.idle).toBe(true);
    fresh.record("x");
    expect(fresh.idle).toBe(false);
    expect(limiter.idle).toBe(true); // its failures are dated long ago
    // A flood of distinct bad credentials (more than it tracks) leaves it working.
    for (let i = 0; i < 60_000; i++) limiter.record(`flood-${i}`, t0 + 70_000);
    for (let i = 0; i < 3; i++) limiter.record("b", t0 + 70_000);
    expect(limiter.blockedFor("b", t0 + 70_001)).toBe(60);
  });
});

describe("client address and BRAINBOX_TRUSTED_PROXIES", () => {
  const trusted = parseCidrList("10.0.0.0/8, 192.168.1.7, fd00::/8, ::1");
  const h = (init: Record<string, string>) => new Headers(init);

  test("CIDR matching for IPv4, IPv6 and IPv4-mapped addresses", () => {
    expect(inCidrs("10.200.3.4", trusted)).toBe(true);
    expect(inCidrs("11.0.0.1", trusted)).toBe(false);
    expect(inCidrs("192.168.1.7", trusted)).toBe(true);
    expect(inCidrs("192.168.1.8", trusted)).toBe(false);
    expect(inCidrs("fd12:3456::1", trusted)).toBe(true);
    expect(inCidrs("fe80::1", trusted)).toBe(false);
    expect(inCidrs("::1", trusted)).toBe(true);
    expect(inCidrs("::ffff:10.1.2.3", trusted)).toBe(true);
    expect(inCidrs("not an address", trusted)).toBe(false);
    expect(inCidrs("0.0.0.0", parseCidrList("0.0.0.0/0"))).toBe(true);
  });

  test("headers count only from a trusted peer; the chain is walked from the nearest hop", () => {
    expect(clientAddress("203.0.113.5", h({ "x-forwarded-for": "1.2.3.4" }), trusted)).toBe("203.0.113.5");
    expect(clientAddress("10.0.0.2", h({ "x-forwarded-for": "1.2.3.4" }), trusted)).toBe("1.2.3.4");
    expect(clientAddress("10.0.0.2", h({}), trusted)).toBe("10.0.0.2");
    // Two trusted proxies in a row, then the client; anything left of the client is the client's own claim.
    expect(clientAddress("10.0.0.2", h({ "x-forwarded-for": "6.6.6.6, 1.2.3.4, 10.9.9.9" }), trusted)).toBe("1.2.3.4");
    expect(clientAddress("10.0.0.2", h({ forwarded: 'for=1.2.3.4, for="[2001:db8::7]:80"' }), trusted)).toBe("2001:db8::7");
    expect(clientAddress("::ffff:10.0.0.2", h({ "x-forwarded-for": "1.2.3.4:5678" }), trusted)).toBe("1.2.3.4");
    expect(clientAddress("::ffff:127.0.0.1", h({}), [])).toBe("127.0.0.1");
    // Garbage written into the chain is its own bucket, never a way to become someone else.
    expect(clientAddress("10.0.0.2", h({ "x-forwarded-for": "1.2.3.4, garbage" }), trusted)).toBe("invalid:garbage");
  });

  test("the variable is validated at start like every other", () => {
    expect(loadConfig({ BRAINBOX_TRUSTED_PROXIES: "10.0.0.0/8,::1" }).trustedProxies.map((c) => c.text)).toEqual(["10.0.0.0/8", "::1"]);
    expect(loadConfig({}).trustedProxies).toEqual([]);
    for (const bad of ["10.0.0.0/33", "proxy.example", "10.0.0/8", "::1/129", "1.2.3.4/8/2", "10.0.0.0/x"]) {
      let error: unknown;
      try {
        loadConfig({ BRAINBOX_TRUSTED_PROXIES: bad });
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toContain("BRAINBOX_TRUSTED_PROXIES");
    }
  });
});
