// What every request passes through before and after the app: a request id, CORS, security headers, a
// limit on failed authentication, one structured access-log line and the request metrics.
import type { Logger } from "../lib/log";
import { randomBase62 } from "../lib/secrets";
import { errorBody } from "./errors";
import { routeOf, type Metrics } from "./metrics";

export interface EdgeOptions {
  log: Logger;
  metrics: Metrics;
  /** `*` or a list of origins allowed to call the API from a browser (no cookies are used: bearer only). */
  corsOrigins: string[];
  /** Failed authentications per client address per minute before 429. */
  authFailuresPerMinute: number;
}

const CORS_HEADERS = {
  "access-control-allow-methods": "GET, POST, PUT, PATCH, DELETE, OPTIONS",
  // x402: the reference wrappers' paid retry sends payment-signature (v2) or x-payment (v1) and, oddly,
  // access-control-expose-headers as a request header; the payment answers are read from JS.
  "access-control-allow-headers":
    "authorization, content-type, x-payment, payment-signature, access-control-expose-headers, accept, mcp-session-id, mcp-protocol-version, last-event-id",
  "access-control-expose-headers":
    "x-request-id, x-payment-response, payment-response, payment-required, retry-after, www-authenticate, mcp-session-id",
  "access-control-max-age": "600",
};

const SECURITY_HEADERS = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
  "cross-origin-opener-policy": "same-origin",
};

/** Sliding one-minute window of failed authentications per client address. */
function failureLimiter(perMinute: number) {
  const failures = new Map<string, number[]>();
  const recent = (ip: string, now: number) => (failures.get(ip) ?? []).filter((t) => now - t < 60_000);
  return {
    blockedFor(ip: string, now = Date.now()): number {
      const times = recent(ip, now);
      if (times.length < perMinute) return 0;
      return Math.ceil((60_000 - (now - times[0]!)) / 1000);
    },
    record(ip: string, now = Date.now()) {
      const times = recent(ip, now);
      times.push(now);
      failures.set(ip, times);
      if (failures.size > 10_000) for (const [k, v] of failures) if (!v.some((t) => now - t < 60_000)) failures.delete(k);
    },
  };
}

export function withEdge(handle: (req: Request) => Promise<Response> | Response, opts: EdgeOptions) {
  const limiter = failureLimiter(opts.authFailuresPerMinute);
  const allowAll = opts.corsOrigins.includes("*");

  return async (request: Request, clientIp: string): Promise<Response> => {
    const started = performance.now();
    const requestId = request.headers.get("x-request-id")?.slice(0, 64).replace(/[^\w.-]/g, "") || randomBase62(16);
    const url = new URL(request.url);
    const route = routeOf(url.pathname);
    const origin = request.headers.get("origin");
    const corsOrigin = origin && (allowAll || opts.corsOrigins.includes(origin)) ? (allowAll ? "*" : origin) : null;

    let response: Response;
    const wait = request.headers.has("authorization") ? limiter.blockedFor(clientIp) : 0;
    if (request.method === "OPTIONS" && request.headers.has("access-control-request-method")) {
      response = new Response(null, { status: 204, headers: corsOrigin ? CORS_HEADERS : {} });
    } else if (wait > 0) {
      response = Response.json(errorBody("rate_limited", `Too many failed authentications; retry in ${wait} s`), {
        status: 429,
        headers: { "retry-after": String(wait) },
      });
    } else {
      try {
        response = await handle(request);
      } catch (e) {
        opts.log.error("request failed outside the app", { requestId, error: String(e) });
        response = Response.json(errorBody("internal", "Internal server error"), { status: 500 });
      }
      if (response.status === 401 && request.headers.has("authorization")) limiter.record(clientIp);
    }

    // Responses from fetch() or static files can have immutable headers: copy when needed.
    const headers = new Headers(response.headers);
    headers.set("x-request-id", requestId);
    for (const [k, v] of Object.entries(SECURITY_HEADERS)) if (!headers.has(k)) headers.set(k, v);
    if (corsOrigin) {
      headers.set("access-control-allow-origin", corsOrigin);
      if (!allowAll) headers.append("vary", "Origin");
      headers.set("access-control-expose-headers", CORS_HEADERS["access-control-expose-headers"]);
    }
    const seconds = (performance.now() - started) / 1000;
    const labels = { method: request.method, route, status: String(response.status) };
    opts.metrics.inc("http_requests_total", labels);
    opts.metrics.observe("http_request_duration_seconds", seconds, { method: request.method, route });
    opts.log.info("request", { requestId, method: request.method, route, status: response.status, ms: Math.round(seconds * 1000) });
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  };
}
