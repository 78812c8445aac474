// The edge every request passes: request ids, security headers, CORS, failed-auth limiting, metrics, logs.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectJson, NO_SOURCES, startTestServer, type TestServer } from "../support/server";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer({ ...NO_SOURCES, BRAINBOX_AUTH_FAILURES_PER_MINUTE: "5" });
});
afterAll(() => s.close());

describe("edge", () => {
  test("every response has a request id (echoed when the client sends one) and security headers", async () => {
    const res = await s.api("/api/v1/brains");
    expect(res.headers.get("x-request-id")).toMatch(/^\w{16}$/);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    const echoed = await s.api("/api/v1/brains", { headers: { "x-request-id": "abc-123" } });
    expect(echoed.headers.get("x-request-id")).toBe("abc-123");
    const error = await s.api("/api/v1/nope");
    expect(error.headers.get("x-content-type-options")).toBe("nosniff");
  });

  test("CORS: preflight answered, bearer-only API open to browsers, payment headers exposed", async () => {
    const pre = await fetch(`${s.url}/api/v1/brains`, {
      method: "OPTIONS",
      headers: { origin: "https://app.example", "access-control-request-method": "POST", "access-control-request-headers": "authorization" },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-origin")).toBe("*");
    expect(pre.headers.get("access-control-allow-headers")).toContain("authorization");
    expect(pre.headers.get("access-control-allow-credentials")).toBeNull();
    const res = await s.api("/api/v1/brains", { headers: { origin: "https://app.example" } });
    expect(res.headers.get("access-control-expose-headers")).toContain("x-payment-response");
  });

  test("CORS can be limited to listed origins", async () => {
    const strict = await startTestServer({ ...NO_SOURCES, BRAINBOX_CORS_ORIGINS: "https://ok.example" });
    const ok = await strict.api("/api/v1/brains", { headers: { origin: "https://ok.example" } });
    expect(ok.headers.get("access-control-allow-origin")).toBe("https://ok.example");
    const other = await strict.api("/api/v1/brains", { headers: { origin: "https://evil.example" } });
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
    await strict.close();
  });

  test("repeated failed authentication is rate limited; a valid key from that address still works", async () => {
    for (let i = 0; i < 5; i++) expect((await s.api("/api/v1/brains", { key: `bb_live_wrong${i}` })).status).toBe(401);
    const limited = await s.api("/api/v1/brains", { key: "bb_live_wrong" });
    expect(limited.status).toBe(429);
    expect((await limited.json()).error.code).toBe("rate_limited");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await s.api("/api/v1/brains")).status).toBe(200);
    // Requests without credentials (health, paid rail) are not limited.
    expect((await s.api("/api/health", { key: null })).status).toBe(200);
  });

  test("/metrics exposes request counts, latencies and queue gauges", async () => {
    const text = await (await fetch(`${s.url}/metrics`)).text();
    expect(text).toContain('http_requests_total{method="GET",route="/api/v1/brains",status="200"}');
    expect(text).toContain("http_request_duration_seconds_bucket");
    expect(text).toMatch(/brainbox_jobs\{status="queued"\} \d+/);
    expect(text).not.toMatch(/brn_[0-9A-Za-z]{16}/);
  });

  test("no secret reaches the logs: keys, upload tokens and bodies stay out", async () => {
    const lines: string[] = [];
    const { loadConfig } = await import("../../src/config");
    const { createLogger } = await import("../../src/lib/log");
    const { startServer } = await import("../../src/runtime");
    const { tempDir } = await import("../support/server");
    const dir = tempDir();
    const logged = await startServer(loadConfig({ BRAINBOX_PORT: "0", BRAINBOX_DATA_DIR: dir }), createLogger("debug", (l) => lines.push(l)));
    const key = logged.firstKey!.key;
    const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
    const brain = (await (await fetch(`${logged.url}/api/v1/brains`, { method: "POST", headers, body: JSON.stringify({ name: "Logs" }) })).json()) as any;
    const ticket = (await (
      await fetch(`${logged.url}/api/brains/${brain.brain.id}/sources/upload-url`, { method: "POST", headers, body: JSON.stringify({ filename: "a.txt", contentType: "text/plain", size: 5 }) })
    ).json()) as any;
    await fetch(ticket.uploadUrl, { method: "PUT", body: "hello", headers: { "content-type": "text/plain" } });
    await fetch(`${logged.url}/api/v1/brains`, { headers: { authorization: "Bearer bb_live_notarealkeybutsecretlooking" } });
    await Bun.sleep(200);
    await logged.stop();
    const all = lines.join("\n");
    expect(lines.length).toBeGreaterThan(3);
    expect(all).toContain('"msg":"request"');
    expect(all).not.toContain(key);
    expect(all).not.toContain(ticket.uploadUrl.split("/").at(-1));
    expect(all).not.toContain("notarealkeybutsecretlooking");
    expect(all).not.toContain("hello");
    (await import("node:fs")).rmSync(dir, { recursive: true, force: true });
  });

  test("/metrics can require a token", async () => {
    const guarded = await startTestServer({ ...NO_SOURCES, BRAINBOX_METRICS_TOKEN: "s3cret-metrics" });
    expect((await fetch(`${guarded.url}/metrics`)).status).toBe(401);
    expect((await fetch(`${guarded.url}/metrics`, { headers: { authorization: "Bearer s3cret-metrics" } })).status).toBe(200);
    await guarded.close();
  });
});
